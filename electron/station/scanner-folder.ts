// The scanner's folder, read from the main side only. The renderer names a file of the listing; the
// file is found again in a fresh listing, its real path (symbolic links resolved) must lie inside
// the folder's real path, and it is opened without following a link, so no name and no link leads
// outside the folder. Paths go through node:path, native to the computer: drive letters and UNC
// shares on Windows, POSIX paths elsewhere.
//
// New scans are noticed by listing the folder afresh whenever the picker asks (it does on opening,
// and on "Look again"), not by fs.watch: scanners usually save to a network share, where watching
// is unreliable (SMB and NFS send no change events, or drop them), and a listing of a scanner's
// folder costs milliseconds only while a nurse is choosing a file.
import { constants } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import nodePath from 'node:path';
import type { CommandOutput, ScannedFile } from '../contract';
import { MAX_LINE_FILES_BASE64, scannedFileName } from '../contract';
import { fail } from './errors';

type Listing = CommandOutput<'scanner.list'>;
type Path = Pick<typeof nodePath, 'relative' | 'isAbsolute' | 'sep'>;

/** The largest file that fits a command's files once base64-encoded. */
export const MAX_SCAN_BYTES = Math.floor((MAX_LINE_FILES_BASE64 * 3) / 4);
export const MAX_LISTED = 100;

const TYPE_BY_EXTENSION: Readonly<Record<string, ScannedFile['contentType']>> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

/** Whether `target` lies inside `folder` (both real paths), by the computer's own path rules. */
export function isInside(folder: string, target: string, path: Path = nodePath): boolean {
  const relative = path.relative(folder, target);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

interface Found extends ScannedFile {
  readonly realPath: string;
  readonly modifiedMs: number;
}

function folderState(error: unknown): Listing['folder'] {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' ? 'unreadable' : 'missing';
}

/** The folder's PDF, JPEG and PNG files, each checked inside it; or why there are none. */
async function scan(folder: string): Promise<{ state: Listing['folder']; files: Found[] }> {
  let real: string;
  try {
    if (!nodePath.isAbsolute(folder)) return { state: 'missing', files: [] };
    real = await realpath(folder);
    if (!(await stat(real)).isDirectory()) return { state: 'missing', files: [] };
  } catch (error) {
    return { state: folderState(error), files: [] };
  }
  let entries;
  try {
    entries = await readdir(real, { withFileTypes: true });
  } catch (error) {
    return { state: folderState(error), files: [] };
  }
  const files: Found[] = [];
  for (const entry of entries) {
    const contentType = TYPE_BY_EXTENSION[nodePath.extname(entry.name).toLowerCase()];
    // Hidden files are the system's (a Mac's "._scan.pdf", a half-written temporary), not scans.
    if (contentType === undefined || entry.name.startsWith('.') || !(entry.isFile() || entry.isSymbolicLink())) continue;
    // A name the renderer could not name back (a control character in it) is not offered.
    if (!scannedFileName.safeParse(entry.name).success) continue;
    try {
      const realPath = await realpath(nodePath.join(real, entry.name));
      if (!isInside(real, realPath)) continue;
      const facts = await stat(realPath);
      if (!facts.isFile()) continue;
      files.push({ name: entry.name, contentType, size: facts.size, modifiedAt: facts.mtime.toISOString(), realPath, modifiedMs: facts.mtimeMs });
    } catch {
      // Gone or unreadable between the listing and the look: not offered.
    }
  }
  files.sort((a, b) => b.modifiedMs - a.modifiedMs || a.name.localeCompare(b.name));
  return { state: 'ready', files: files.slice(0, MAX_LISTED) };
}

export async function listScans(folder: string | null, nowIso: string): Promise<Listing> {
  if (folder === null) return { folder: 'not-set', files: [], listedAt: nowIso };
  const { state, files } = await scan(folder);
  return { folder: state, files: files.map(({ name, contentType, size, modifiedAt }) => ({ name, contentType, size, modifiedAt })), listedAt: nowIso };
}

/** The bytes of the listed file of that name; refused when it is not in the folder's listing now. */
export async function readScan(folder: string | null, name: string): Promise<{ name: string; contentType: ScannedFile['contentType']; bytes: Buffer }> {
  if (folder === null) fail('SETTINGS_MISSING', 'No scanner folder is set on this station.', { issues: [{ field: 'scannerFolder', message: 'The administrator sets the scanner’s folder in Settings.' }] });
  const { state, files } = await scan(folder);
  if (state !== 'ready') fail('NOT_FOUND', 'The scanner’s folder cannot be read now.', { field: 'name' });
  const file = files.find((f) => f.name === name);
  if (file === undefined) fail('NOT_FOUND', 'That file is no longer in the scanner’s folder: look again.', { field: 'name' });
  // No link followed at the last step either (where the system has the flag): the file listed is the file read.
  const handle = await open(file.realPath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const facts = await handle.stat();
    if (!facts.isFile()) fail('NOT_FOUND', 'That file is no longer in the scanner’s folder: look again.', { field: 'name' });
    if (facts.size === 0) fail('VALIDATION', 'The file is empty.', { field: 'name' });
    if (facts.size > MAX_SCAN_BYTES) fail('VALIDATION', `The file is larger than the ${MAX_SCAN_BYTES} bytes the station sends.`, { field: 'name' });
    const bytes = Buffer.alloc(facts.size);
    const { bytesRead } = await handle.read(bytes, 0, facts.size, 0);
    return { name: file.name, contentType: file.contentType, bytes: bytes.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}
