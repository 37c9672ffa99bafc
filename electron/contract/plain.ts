// The contract's plain values — no zod — for the renderer to import at run time. Everything else of
// the contract reaches the renderer as types only: its schemas would bring zod and every schema's
// construction into the first screen's JavaScript (eslint.config.js holds the renderer to it).

/** The document types the exchange files a claim's papers under (SHA's list: electron/vocabulary). */
export { claimDocumentTypes as CLAIM_DOCUMENT_TYPES } from '../vocabulary';

/**
 * The files of one line travel inside the command, base64-encoded: together at most 700 000
 * characters (about 510 KiB), so the command fits the browser host's 1 MiB message.
 */
export const MAX_LINE_FILES_BASE64 = 700_000;
