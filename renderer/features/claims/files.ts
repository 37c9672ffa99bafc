// A document chosen from a file (or a scanner's folder) checked before anything is sent: PDF, JPEG
// or PNG by its content, not its name; within the contract's limit for the files of one command;
// read as base64 for the station, and what the preview shows (a picture, or a PDF's page count).
import { MAX_LINE_FILES_BASE64 } from '../../../electron/contract/plain';

/** The contract's limit for the files of one command (lineAttachment), in base64 characters. */
export const MAX_BASE64 = MAX_LINE_FILES_BASE64;
/**
 * The largest file taken: the whole kilobytes (of 1,024 bytes, as Explorer counts them) that fit the
 * contract's limit, 512 KB of its 525,000 bytes, so the limit the nurse reads is exact: a file Explorer
 * shows at 512 KB or less is taken, and one it shows larger is refused (renderer/i18n/formatting.ts).
 */
export const MAX_BYTES = Math.floor(Math.floor((MAX_BASE64 * 3) / 4) / 1024) * 1024;

export type DocumentContentType = 'application/pdf' | 'image/jpeg' | 'image/png';

export interface ChosenFile {
  readonly fileName: string;
  readonly contentType: DocumentContentType;
  readonly size: number;
  readonly dataBase64: string;
  /** A PDF's page count where its text says (null for a picture, or a PDF that hides it). */
  readonly pages: number | null;
}

export type FileProblem = 'empty' | 'too-big' | 'wrong-type' | 'not-what-it-says' | 'unreadable';

const TYPE_BY_EXTENSION: Readonly<Record<string, DocumentContentType>> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/** The type the bytes are, by their first bytes (the same check SHA's side makes). */
export function sniff(bytes: Uint8Array): DocumentContentType | null {
  const starts = (...b: number[]) => b.every((v, i) => bytes[i] === v);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  return null;
}

/** Counts the page objects of a PDF (`/Type /Page`, not `/Pages`); null when none are in plain sight (compressed object streams). */
export function pdfPages(bytes: Uint8Array): number | null {
  const text = new TextDecoder('latin1').decode(bytes);
  const count = text.match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
  return count > 0 ? count : null;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** The file checked and read, or what is wrong with it. */
export async function readDocument(file: File): Promise<ChosenFile | FileProblem> {
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const named = TYPE_BY_EXTENSION[extension] ?? (Object.values(TYPE_BY_EXTENSION).includes(file.type as DocumentContentType) ? (file.type as DocumentContentType) : null);
  if (named === null) return 'wrong-type';
  if (file.size === 0) return 'empty';
  if (file.size > MAX_BYTES) return 'too-big';
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return 'unreadable';
  }
  const actual = sniff(bytes);
  if (actual === null) return 'not-what-it-says';
  return {
    fileName: file.name.replace(/[\\/]/g, '_').slice(0, 200),
    contentType: actual,
    size: bytes.length,
    dataBase64: toBase64(bytes),
    pages: actual === 'application/pdf' ? pdfPages(bytes) : null,
  };
}
