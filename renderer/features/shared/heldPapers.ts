// Documents held in a form until the command that carries them is sent (a billing line, a
// preauthorization request): at most so many, and together within the contract's limit for the
// files of one command. The caller words the refusal for its own place.
import { MAX_BASE64, MAX_BYTES } from '../claims/files';

/** The largest total the files of one command may have together. */
export const MAX_BYTES_TOGETHER = MAX_BYTES;

/** Why one more document cannot join those held, or null when it can. */
export function heldPaperRefusal(held: readonly { readonly dataBase64: string }[], paper: { readonly dataBase64: string }, max: number): 'too-many' | 'too-big' | null {
  if (held.length >= max) return 'too-many';
  const together = held.reduce((n, p) => n + p.dataBase64.length, 0) + paper.dataBase64.length;
  return together > MAX_BASE64 ? 'too-big' : null;
}
