// Multipart uploads (attachments, OTP whitelist evidence, multipart billing lines): at most 5 MiB a
// file and 10 files a claim (ours); PDF, JPEG and PNG only, checked by declared type and content.
import type { FastifyRequest } from 'fastify';
import { fail } from './errors';

export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENTS_PER_CLAIM = 10;
export const ACCEPTED_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

const SIGNATURES: Record<(typeof ACCEPTED_CONTENT_TYPES)[number], (b: Buffer) => boolean> = {
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
};

export interface UploadedFile {
  readonly fieldname: string;
  readonly filename: string;
  readonly mimetype: string;
  readonly data: Buffer;
}

export interface MultipartBody {
  readonly fields: Record<string, string>;
  readonly files: UploadedFile[];
}

export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  if (!request.isMultipart()) throw fail.unsupportedMediaType('This operation takes multipart/form-data');
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype.toLowerCase(), data });
    } else {
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
    }
  }
  return { fields, files };
}

/** Refuses a file that is empty, too large, of an unaccepted type, or not what its type says. */
export function checkAttachment(file: UploadedFile): (typeof ACCEPTED_CONTENT_TYPES)[number] {
  if (file.data.length > MAX_ATTACHMENT_BYTES) throw fail.tooLarge(`${file.filename} is larger than 5 MiB`);
  const type = ACCEPTED_CONTENT_TYPES.find((t) => t === file.mimetype);
  if (type === undefined) {
    throw fail.unsupportedMediaType(`${file.filename}: ${file.mimetype} is not accepted; send application/pdf, image/jpeg or image/png`);
  }
  if (file.data.length === 0) throw fail.field(file.fieldname, 'the file is empty');
  if (!SIGNATURES[type](file.data)) throw fail.unsupportedMediaType(`${file.filename}: the content is not ${type}`);
  return type;
}

/** An attachment's metadata as the multipart forms carry it, in the `attachments` JSON text part. */
export interface AttachmentMetadata {
  readonly document_title: string;
  readonly document_type: string;
  readonly file_field_name: string;
}

/**
 * Pairs each metadata entry with the file part its `file_field_name` names, checking every file:
 * a metadata entry without its part, or a part no entry names, is refused (the exchange would lose
 * the file without a word, R `create_preauth()`; A's pre-auth service refuses both the same way).
 */
export function pairAttachments(metadata: readonly AttachmentMetadata[], files: readonly UploadedFile[]): { meta: AttachmentMetadata; file: UploadedFile }[] {
  if (metadata.length > MAX_ATTACHMENTS_PER_CLAIM) throw fail.rule('TOO_MANY_ATTACHMENTS', `At most ${MAX_ATTACHMENTS_PER_CLAIM} attachments`);
  const pairs = metadata.map((meta, n) => {
    const file = files.find((f) => f.fieldname === meta.file_field_name);
    if (file === undefined) throw fail.field(`attachments.${n}.file_field_name`, `no file part named ${meta.file_field_name}`);
    checkAttachment(file);
    return { meta, file };
  });
  const named = new Set(metadata.map((m) => m.file_field_name));
  const stray = files.find((f) => !named.has(f.fieldname));
  if (stray !== undefined) throw fail.field(stray.fieldname, 'a file part that no attachments entry names in its file_field_name');
  return pairs;
}
