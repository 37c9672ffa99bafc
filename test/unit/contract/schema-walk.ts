// Walks a zod schema of the contract and reports every key name it can carry, and every place where
// it could carry keys or values that cannot be seen (open objects, records, any/unknown) or that do
// not survive JSON (dates, bigints, maps, transforms).
import type { z } from 'zod';

export interface Walk {
  /** Dotted paths of every object key, e.g. "verification.sms.sentTo". */
  keys: { key: string; path: string }[];
  /** What makes the schema unwalkable or not JSON-safe, with where. */
  problems: string[];
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
}

const leaves = new Set(['string', 'number', 'boolean', 'null', 'literal', 'enum']);

export function walkSchema(schema: z.ZodType, path = ''): Walk {
  const walk: Walk = { keys: [], problems: [] };
  visit(schema, path, walk);
  return walk;
}

function visit(schema: z.ZodType, path: string, walk: Walk): void {
  const def = schema._zod.def as unknown as Def;
  const at = path || '(root)';
  if (leaves.has(def.type)) return;
  switch (def.type) {
    case 'object': {
      if (def.catchall?._zod.def.type !== 'never') walk.problems.push(`${at}: object is not strict (may carry unknown keys)`);
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        const childPath = path ? `${path}.${key}` : key;
        walk.keys.push({ key, path: childPath });
        visit(child, childPath, walk);
      }
      return;
    }
    case 'array':
      if (def.element) visit(def.element, `${path}[]`, walk);
      return;
    case 'union':
      for (const option of def.options ?? []) visit(option, path, walk);
      return;
    case 'optional':
    case 'nullable':
      if (def.innerType) visit(def.innerType, path, walk);
      return;
    default:
      walk.problems.push(`${at}: ${def.type} is not allowed in the contract`);
  }
}

/** Fragments that mark a key as able to carry a secret. */
export const secretFragments = ['token', 'secret', 'password', 'passcode', 'otp', 'consent', 'guid', 'access', 'auth', 'bearer'];

/**
 * Keys that match a fragment on purpose. Each one is checked by hand: it must never hold a token.
 * - authorizationLink: the page where the patient matches fingerprints ({handle, url, expiresAt});
 *   the URL is shown in a view or iframe and is not a secret.
 */
export const deliberateExceptions = new Set(['authorizationLink']);

/** A preauth is the payer's approval of a treatment, not a credential: its name alone does not trip "auth". */
const harmlessWords = /preauth/g;

export function secretKeys(walk: Walk, allowed: ReadonlySet<string> = deliberateExceptions): string[] {
  const suspicious = (key: string) => {
    const words = key.toLowerCase().replace(harmlessWords, '');
    return secretFragments.some((fragment) => words.includes(fragment));
  };
  return walk.keys.filter(({ key }) => !allowed.has(key) && suspicious(key)).map(({ path }) => path);
}
