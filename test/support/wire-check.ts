// Holds a recorded request to docs/exchange-wire.md: it must match at least one entry of its method
// and path; against that entry every field sent is a Sent row (name, In, Type), every `yes` row is
// present, and the body's encoding is the entry's. Types are read as the page defines them: in a
// form or multipart body every text part is text, so `number` is a decimal numeral, `json string[]`
// a JSON array of strings, `date-time` an RFC 3339 timestamp.
import type { RecordedRequest } from './wire-recorder';
import type { OperationLike, SentRow, TypeAlternative, WireDoc, WireEntry } from './wire-doc';
import { isJsonObject, valuesAt } from './wire-shape';

export interface RequestProblem {
  /** The entry the request was held to (the best fitting of its method and path). */
  readonly operation: string | undefined;
  /** The row broken, when one is. */
  readonly row: { readonly name: string; readonly line: number } | undefined;
  readonly message: string;
}

export interface RequestCheck {
  readonly request: string;
  /** The entry that fits best; undefined when no entry has the method and path. */
  readonly operation: string | undefined;
  /** Every entry of the method and path. */
  readonly candidates: readonly string[];
  readonly problems: readonly RequestProblem[];
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function realDay(year: string | undefined, month: string | undefined, day: string | undefined): boolean {
  const d = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return d.getUTCFullYear() === Number(year) && d.getUTCMonth() === Number(month) - 1 && d.getUTCDate() === Number(day);
}

export function isRfc3339(text: string): boolean {
  const m = RFC3339.exec(text);
  return m !== null && realDay(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61;
}

export function isDay(text: string): boolean {
  const m = DAY.exec(text);
  return m !== null && realDay(m[1], m[2], m[3]);
}

/** Whether a JSON value is of a base type of the page. */
function jsonFits(value: unknown, base: TypeAlternative['base']): boolean {
  switch (base) {
    case 'string':
      return typeof value === 'string';
    case 'date':
      return typeof value === 'string' && isDay(value);
    case 'date-time':
      return typeof value === 'string' && isRfc3339(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'object':
      return isJsonObject(value);
    case 'object[]':
      return Array.isArray(value) && value.every(isJsonObject);
    case 'file':
      return false;
  }
}

/** Whether text on the wire (a form or multipart text part, a query or path value) holds a base type. */
function textFits(text: string, base: TypeAlternative['base']): boolean {
  switch (base) {
    case 'string':
      return true;
    case 'date':
      return isDay(text);
    case 'date-time':
      return isRfc3339(text);
    case 'integer':
      return /^-?\d+$/.test(text);
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text);
    case 'boolean':
      return text === 'true' || text === 'false';
    default:
      // Arrays and objects travel in text only as JSON (`json object[]`).
      return false;
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false };

/** Text against a Type cell: the first alternative it fits, with the JSON it holds for a `json` one. */
function textAgainst(text: string, types: readonly TypeAlternative[]): Parsed {
  for (const t of types) {
    if (!t.json) {
      if (textFits(text, t.base)) return { ok: true, value: text };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      continue;
    }
    if (jsonFits(value, t.base)) return { ok: true, value };
  }
  return { ok: false };
}

const show = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

function namePattern(name: string): RegExp {
  const source = name.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^.\\[\\]]+');
  return new RegExp(`^${source}$`);
}

/** The row of `rows` naming `field`: an exact name first, then a `{n}` pattern. */
export function rowNaming(rows: readonly SentRow[], field: string): SentRow | undefined {
  return rows.find((r) => r.names.includes(field)) ?? rows.find((r) => r.names.some((n) => n.includes('{') && namePattern(n).test(field)));
}

/** The template's values for a path, or null when the path is not of the template. */
export function matchTemplate(template: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${source}/?$`).exec(path);
  if (match === null) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1] ?? '')]));
}

const rowLabel = (row: SentRow) => `\`${row.names.join('` / `')}\` (${row.in}, ${row.type}, ${row.required})`;

export function encodingOf(request: RecordedRequest): string {
  return request.body.encoding === 'other' ? `${request.body.contentType || 'unknown'} (${request.body.problem})` : request.body.encoding;
}

/** The request held to one entry. */
export function checkRequestAgainst(request: RecordedRequest, entry: WireEntry): RequestProblem[] {
  const problems: RequestProblem[] = [];
  const add = (message: string, row?: SentRow) =>
    problems.push({ operation: entry.name, row: row === undefined ? undefined : { name: row.names[0] ?? '', line: row.line }, message });
  if (entry.placeholder || entry.sent === undefined) {
    add(`the entry of ${entry.name} is not written yet${entry.placeholder ? ' (placeholder)' : ' (no Sent table)'}: nothing to hold the request to`);
    return problems;
  }
  const rows = entry.sent;
  const byIn = (where: string) => rows.filter((r) => r.in === where);

  // The encoding.
  const sentEncoding = request.body.encoding;
  if (entry.body !== undefined && sentEncoding !== entry.body) add(`the body is ${encodingOf(request)}, the entry says body: ${entry.body}`);

  // Path values.
  const params = entry.path === undefined ? null : matchTemplate(entry.path, request.path);
  for (const [name, value] of Object.entries(params ?? {})) {
    const row = rowNaming(byIn('path'), name);
    if (row !== undefined && !textAgainst(value, row.types).ok) add(`path {${name}} ${show(value)} is not ${row.type}`, row);
  }

  // Query parameters.
  const queryRows = byIn('query');
  for (const [name, values] of Object.entries(request.query)) {
    const row = rowNaming(queryRows, name);
    if (row === undefined) {
      add(`query \`${name}\` is not a Sent row of the entry`);
      continue;
    }
    for (const value of values) if (!textAgainst(value, row.types).ok) add(`query \`${name}\` ${show(value)} is not ${row.type}`, row);
  }
  for (const row of queryRows) {
    if (row.required === 'yes' && !Object.keys(request.query).some((name) => rowNaming([row], name) !== undefined)) add(`${rowLabel(row)} is missing from the query`, row);
  }

  // Headers: only the entry's own (the ones every call carries are in "Across every operation").
  for (const row of byIn('header')) {
    const present = row.names.some((n) => request.headers[n.toLowerCase()] !== undefined);
    if (row.required === 'yes' && !present) add(`${rowLabel(row)} is missing from the headers`, row);
    for (const n of row.names) {
      const value = request.headers[n.toLowerCase()];
      if (typeof value === 'string' && !textAgainst(value, row.types).ok) add(`header \`${n}\` ${show(value)} is not ${row.type}`, row);
    }
  }

  // The body.
  const bodyRows = byIn('body');
  let body: Record<string, unknown> | undefined;
  if (request.body.encoding === 'json') {
    if (isJsonObject(request.body.value)) body = request.body.value;
    else add(`the JSON body is ${show(request.body.value)}, not an object`);
  } else if (request.body.encoding === 'form' || request.body.encoding === 'multipart') {
    // Text parts are checked as text; a `json` part is read and its members held to the rows below it.
    body = {};
    for (const [name, values] of Object.entries(request.body.fields)) {
      const row = rowNaming(bodyRows, name);
      if (row === undefined) {
        add(`body \`${name}\` is not a Sent row of the entry`);
        continue;
      }
      const parsed = values.map((text) => ({ text, read: textAgainst(text, row.types) }));
      for (const p of parsed) if (!p.read.ok) add(`body \`${name}\` ${show(p.text)} is not ${row.type}`, row);
      const first = parsed[0];
      body[name] = first !== undefined && first.read.ok && row.types.some((t) => t.json) ? first.read.value : TEXT_PART;
    }
  }
  if (body !== undefined) {
    walkJson(body, '', bodyRows, request.body.encoding === 'json', add);
    for (const row of bodyRows) if (row.required === 'yes') problems.push(...missingFrom(body, row, entry.name));
  } else {
    for (const row of bodyRows) if (row.required === 'yes') add(`${rowLabel(row)} is missing: the request has no ${entry.body ?? ''} body`, row);
  }

  // File parts.
  const fileRows = byIn('file');
  const files = request.body.encoding === 'multipart' ? request.body.files : [];
  for (const file of files) if (rowNaming(fileRows, file.field) === undefined) add(`file part \`${file.field}\` (${file.fileName}) is not a Sent row of the entry`);
  for (const row of fileRows) {
    if (row.required === 'yes' && !files.some((f) => rowNaming([row], f.field) !== undefined)) add(`${rowLabel(row)} is missing: no such file part`, row);
  }
  return problems;
}

/** A `yes` row absent from the body, or from any instance of its parent (`items[].unit_price`: every item). */
function missingFrom(body: Record<string, unknown>, row: SentRow, operation: string): RequestProblem[] {
  // Aliases of a row name the same member in the same place: the first one's parent is theirs.
  const name = row.names[0] ?? '';
  const cut = name.lastIndexOf('.');
  const parentPath = cut < 0 ? '' : name.slice(0, cut);
  const keys = row.names.map((n) => n.slice(n.lastIndexOf('.') + 1));
  const present = (parent: Record<string, unknown>) => Object.keys(parent).some((k) => keys.some((key) => (key.includes('{') ? namePattern(key).test(k) : key === k)));
  const parents = parentPath === '' ? [body] : valuesAt(body, parentPath);
  return parents
    .filter((parent) => isJsonObject(parent) && !present(parent))
    .slice(0, 1)
    .map(() => ({ operation, row: { name, line: row.line }, message: `${rowLabel(row)} is missing${parentPath === '' ? '' : ` from \`${parentPath}\``}` }));
}

/** Stands for a text part in the walk: present, already checked as text. */
const TEXT_PART = Symbol('text part');

function walkJson(value: Record<string, unknown>, prefix: string, rows: readonly SentRow[], typed: boolean, add: (message: string, row?: SentRow) => void): void {
  for (const [key, member] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    // Top-level form and multipart parts were named and typed as text already.
    if (member === TEXT_PART) continue;
    const row = rowNaming(rows, path);
    const checkTypes = typed || prefix !== '';
    if (row === undefined) {
      if (checkTypes) add(`body \`${path}\` is not a Sent row of the entry`);
      continue;
    }
    if (checkTypes && !row.types.some((t) => jsonFits(member, t.base))) add(`body \`${path}\` ${show(member)} is not ${row.type}`, row);
    descend(member, path, rows, add);
  }
}

function descend(member: unknown, path: string, rows: readonly SentRow[], add: (message: string, row?: SentRow) => void): void {
  if (isJsonObject(member)) walkJson(member, path, rows, true, add);
  else if (Array.isArray(member)) for (const item of member) if (isJsonObject(item) || Array.isArray(item)) descend(item, `${path}[]`, rows, add);
}

/** The request held to every entry of its method and path; the best fitting one decides. */
export function checkRequest(request: RecordedRequest, doc: WireDoc): RequestCheck {
  const label = `${request.method} ${request.path}`;
  const candidates = doc.entries.filter((e) => e.method === request.method && e.path !== undefined && matchTemplate(e.path, request.path) !== null);
  if (candidates.length === 0) {
    return { request: label, operation: undefined, candidates: [], problems: [{ operation: undefined, row: undefined, message: `no entry of docs/exchange-wire.md has ${label}` }] };
  }
  const ranked = candidates.map((entry) => ({ entry, problems: checkRequestAgainst(request, entry), fit: fieldsNamed(request, entry) }));
  ranked.sort((a, b) => byFit(a.entry, a.problems.length, a.fit, b.entry, b.problems.length, b.fit));
  const best = ranked[0]!;
  return { request: label, operation: best.entry.name, candidates: candidates.map((c) => c.name), problems: best.problems };
}

const written = (entry: WireEntry | undefined) => entry !== undefined && !entry.placeholder && entry.sent !== undefined;

/**
 * The order of the entries a request may be for: one it fits wholly first; then written entries
 * before unwritten ones (what a written entry says of the request is worth reading), fewer problems,
 * more of the request's fields named.
 */
function byFit(a: WireEntry | undefined, aProblems: number, aFit: number, b: WireEntry | undefined, bProblems: number, bFit: number): number {
  return Number(aProblems > 0) - Number(bProblems > 0) || Number(!written(a)) - Number(!written(b)) || aProblems - bProblems || bFit - aFit;
}

/** How many of the request's top-level fields the entry names: the tie-break between entries of one path. */
function fieldsNamed(request: RecordedRequest, entry: WireEntry): number {
  const rows = entry.sent ?? [];
  const sent = [
    ...Object.keys(request.query),
    ...(request.body.encoding === 'json' && isJsonObject(request.body.value) ? Object.keys(request.body.value) : []),
    ...(request.body.encoding === 'form' || request.body.encoding === 'multipart' ? Object.keys(request.body.fields) : []),
    ...(request.body.encoding === 'multipart' ? request.body.files.map((f) => f.field) : []),
  ];
  return sent.filter((field) => rowNaming(rows, field) !== undefined).length;
}

/**
 * The client's operation a request is for: by method and path template; where several share them
 * (POST /claims/authorize, /claims/submit …), the one whose entry the request fits best, else the
 * first in the client's table.
 */
export function identifyOperation(request: RecordedRequest, operations: readonly OperationLike[], doc: WireDoc): string | undefined {
  const matching = operations.filter((op) => op.method === request.method && matchTemplate(op.path, request.path) !== null);
  if (matching.length <= 1) return matching[0]?.name;
  const ranked = matching
    .map((op) => {
      const entry = doc.byName.get(op.name);
      // An operation without an entry fits worst of all.
      if (entry === undefined) return { name: op.name, entry, problems: Number.POSITIVE_INFINITY, fit: 0 };
      return { name: op.name, entry, problems: checkRequestAgainst(request, entry).length, fit: fieldsNamed(request, entry) };
    })
    .sort((a, b) => byFit(a.entry, a.problems, a.fit, b.entry, b.problems, b.fit));
  // Sorting is stable: where nothing tells them apart (no entry written), the table's order decides.
  return ranked[0]?.name;
}

/** One line per problem: which request broke which row of which entry. */
export function formatRequestCheck(check: RequestCheck, seq?: number): string {
  const others = check.candidates.filter((c) => c !== check.operation);
  const head = `${seq === undefined ? '' : `#${seq} `}${check.request}${check.operation === undefined ? '' : ` → ${check.operation}`}${others.length === 0 ? '' : ` (the best fit of ${[check.operation, ...others].join(', ')})`}`;
  return [head, ...check.problems.map((p) => `  - ${p.row === undefined ? '' : `[row \`${p.row.name}\`, docs/exchange-wire.md line ${p.row.line}] `}${p.message}`)].join('\n');
}
