// A scanner's folder: where the facility's scanner drops its PDFs and pictures, set by the
// administrator. The renderer never sends a path: it names a file of the listing by its name, and
// the main side finds it again inside the folder before reading it.
import { z } from 'zod';
import { timestamp } from './common';
import { MAX_LINE_FILES_BASE64 } from './visit';

const hasControlCharacter = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20);

/** A full folder path on Windows (`C:\Users\Public\Scans`, `\\server\scans`) or Linux (`/srv/scans`). */
export const scannerFolderPath = z
  .string()
  .min(2)
  .max(400)
  .regex(/^(?:[A-Za-z]:[\\/]|\\\\[^\\/]+[\\/][^\\/]|\/)/, 'must be a full folder path, such as C:\\Users\\Public\\Scans or /srv/scans')
  .refine((folder) => !hasControlCharacter(folder), 'must be a full folder path, such as C:\\Users\\Public\\Scans or /srv/scans');

/** A file's name as listed: no folders, no `..`. */
export const scannedFileName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\\/]+$/, 'a file name from the listing, without folders')
  .refine((name) => name !== '.' && name !== '..' && !hasControlCharacter(name), 'a file name from the listing, without folders');

export const scannedFile = z.strictObject({
  name: scannedFileName,
  /** By its name's ending; the bytes are checked when it is chosen, as any file's are. */
  contentType: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
  size: z.number().int().min(0),
  modifiedAt: timestamp,
});

export const scannerCommands = {
  /**
   * The PDF, JPEG and PNG files in the scanner's folder, newest first (at most 100), read afresh on
   * every call. `folder` is `not-set` until the administrator sets one, `missing` when it cannot be
   * found (a share not connected), `unreadable` when the station may not read it.
   */
  'scanner.list': {
    input: z.strictObject({}),
    output: z.strictObject({
      folder: z.enum(['ready', 'not-set', 'missing', 'unreadable']),
      files: z.array(scannedFile).max(100),
      listedAt: timestamp,
    }),
  },
  /** One listed file's bytes, for the same checks and preview as a file chosen from the computer. */
  'scanner.read': {
    input: z.strictObject({ name: scannedFileName }),
    output: z.strictObject({
      name: scannedFileName,
      size: z.number().int().min(1),
      dataBase64: z.base64().min(1).max(MAX_LINE_FILES_BASE64),
    }),
  },
};

export type ScannedFile = z.infer<typeof scannedFile>;
