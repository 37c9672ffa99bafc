// The data folder and its files are the station's user's alone: the journal, the audit log, the log,
// the papers waiting and (in browser mode) the key store. On POSIX a folder is 0700 and a file 0600
// (one found open to others is tightened, and said so); on Windows, where Node's mode bits do
// nothing, the folder's ACL is replaced by one granting the current user alone, inherited by
// everything made inside it (icacls, inheritance from the parent removed), and a file's likewise.
import { execFile } from 'node:child_process';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';

/** The mode every file of the data folder is created with (POSIX). */
export const OWNER_ONLY_FILE_MODE = 0o600;
/** The mode of the data folder and the folders in it (POSIX). */
export const OWNER_ONLY_FOLDER_MODE = 0o700;

export interface OwnerOnlyOptions {
  /** `process.platform`: decides how the path is kept to its user. */
  readonly platform: string;
  /** Runs a program (icacls on Windows); injected by tests. */
  readonly run?: (program: string, args: readonly string[]) => Promise<void>;
  /** Told when a path open to others was found and tightened. */
  readonly warn?: (message: string) => void;
}

const runProgram = async (program: string, args: readonly string[]): Promise<void> => {
  await promisify(execFile)(program, [...args], { windowsHide: true });
};

/** The icacls arguments that leave `file` readable and writable by `user` alone. */
export function windowsOwnerOnlyArgs(file: string, user: string): string[] {
  return [file, '/inheritance:r', '/grant:r', `${user}:(F)`];
}

/** The icacls arguments that leave a folder, and what is made in it from now on, to `user` alone. */
export function windowsOwnerOnlyFolderArgs(folder: string, user: string): string[] {
  return [folder, '/inheritance:r', '/grant:r', `${user}:(OI)(CI)(F)`];
}

/**
 * Keeps an existing path to its user: on POSIX tightens its mode when others may read or enter it
 * (`existing` says whether that is worth a warning: a file the station just made is not), on
 * Windows sets the user-only ACL.
 */
export async function keepToOwner(target: string, kind: 'file' | 'folder', o: OwnerOnlyOptions & { readonly existing?: boolean }): Promise<void> {
  if (o.platform === 'win32') {
    const user = userInfo().username;
    await (o.run ?? runProgram)('icacls', kind === 'folder' ? windowsOwnerOnlyFolderArgs(target, user) : windowsOwnerOnlyArgs(target, user));
    return;
  }
  const mode = (await stat(target)).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  await chmod(target, kind === 'folder' ? OWNER_ONLY_FOLDER_MODE : OWNER_ONLY_FILE_MODE);
  if (o.existing !== false) o.warn?.(`${target} was readable by other users (mode ${mode.toString(8)}): it is now readable by its owner only.`);
}

/** The data folder, made if missing (0700), and kept to its user whether new or not. */
export async function ownerOnlyFolder(folder: string, o: OwnerOnlyOptions): Promise<void> {
  let existed = true;
  try {
    await stat(folder);
  } catch {
    existed = false;
  }
  await mkdir(folder, { recursive: true, mode: OWNER_ONLY_FOLDER_MODE });
  await keepToOwner(folder, 'folder', { ...o, existing: existed });
}
