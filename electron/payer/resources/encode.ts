// Shared encoders for the resource tables.
import type { FileInput } from '../wire/common';
import type { FilePart, RequestBody } from '../operation';

/**
 * A multipart body: scalars as text, lists and objects as JSON text (the exchange reads
 * `diagnoses` that way in combined billing), files as parts.
 */
export function multipart(fields: Record<string, unknown>, files: readonly FilePart[]): RequestBody {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  }
  return { kind: 'multipart', fields: out, files };
}

export function filePart(field: string, file: FileInput): FilePart {
  return { field, fileName: file.file_name, contentType: file.content_type, data: file.data };
}
