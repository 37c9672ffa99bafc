// Reads the endpoints a specification names, so tests can prove an implementation (the client's
// operation table here; the sandbox's routes later) covers every one of them. Plain functions of
// the markdown text: no knowledge of the client or the sandbox.

export interface NamedEndpoint {
  /** The path as written, query and trailing punctuation removed, e.g. `/api/v1/claims/otp`. */
  readonly path: string;
  /** Methods the text names for it (`POST /api/v1/…`, or a table row `| POST | /api/v1/… |`). */
  readonly methods: readonly string[];
}

const methodWords = 'GET|POST|PUT|PATCH|DELETE';
/** A path segment: a word, or a `{placeholder}` that may contain spaces ("{tenant or facility code}"). */
const segment = String.raw`(?:[A-Za-z0-9_.:\-]+|\{[^}\n]*\})`;
const pathPattern = String.raw`\/${segment}(?:\/${segment})*`;

function clean(path: string): string {
  return path.replace(/[.,;:]+$/, '');
}

function collect(found: Map<string, Set<string>>, path: string, methods: string[]): void {
  const key = clean(path);
  const set = found.get(key) ?? new Set<string>();
  for (const m of methods) set.add(m);
  found.set(key, set);
}

function toList(found: Map<string, Set<string>>): NamedEndpoint[] {
  return [...found.entries()].map(([path, methods]) => ({ path, methods: [...methods].sort() })).sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Every `/api/v1/...` path named anywhere in the text, with the methods named next to it (in
 * prose, "POST /api/v1/x", or in a table row, "| POST | /api/v1/x |").
 */
export function extractApiPaths(markdown: string): NamedEndpoint[] {
  const found = new Map<string, Set<string>>();
  for (const match of markdown.matchAll(new RegExp(String.raw`\/api\/v1${pathPattern}`, 'g'))) collect(found, match[0], []);
  const withMethod = new RegExp(String.raw`\b(${methodWords})\s*(?:\|\s*)?(\/api\/v1${pathPattern})`, 'g');
  for (const match of markdown.matchAll(withMethod)) collect(found, match[2] ?? '', [match[1] ?? '']);
  return toList(found);
}

/**
 * The endpoints of one markdown table (found by the heading above it), written as
 * "`GET/POST /tenants/{id}/endpoints`": paths are relative, so `prefix` (e.g. `/api/v1`) is added.
 */
export function extractTableEndpoints(markdown: string, heading: string, prefix: string): NamedEndpoint[] {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`heading not found: ${heading}`);
  const rest = markdown.slice(start + heading.length);
  const nextHeading = rest.search(/\n#{1,6} /);
  const section = nextHeading < 0 ? rest : rest.slice(0, nextHeading);
  const found = new Map<string, Set<string>>();
  const pattern = new RegExp(String.raw`\b((?:${methodWords})(?:\/(?:${methodWords}))*)\s+(${pathPattern})`, 'g');
  for (const match of section.matchAll(pattern)) {
    collect(found, `${prefix}${match[2] ?? ''}`, (match[1] ?? '').split('/'));
  }
  return toList(found);
}

/** `{token}` and `{consent_token}` name the same slot: compare templates with placeholders blanked. */
export function blankPlaceholders(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

/** Paths the contract names only to retire them: no implementation may offer them. */
export const retiredPaths: readonly { readonly path: string; readonly reason: string }[] = [
  {
    path: '/api/v1/preauth/cancel',
    reason: 'replaced by /api/v1/preauths/cancel (service-interface.md, "Versioning"); the sandbox must answer it 404',
  },
];
