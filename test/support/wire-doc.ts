// Reads docs/exchange-wire.md in the form its "How to read an entry" section fixes: one entry per
// operation under "# Operations" (a `### \`group.method\`` heading, the method and path line, a Sent
// and a Read table), and holds the page to that form and to the client's table of operations. The
// wire-doc test, the fixture tests and the recorder's request checker all read the page through here.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WIRE_DOC_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/exchange-wire.md');

export const bodyEncodings = ['json', 'form', 'multipart', 'none'] as const;
export type BodyEncoding = (typeof bodyEncodings)[number];
export const sentIn = ['body', 'query', 'path', 'header', 'file'] as const;
export type SentIn = (typeof sentIn)[number];
export const baseTypes = ['string', 'integer', 'number', 'boolean', 'date', 'date-time', 'string[]', 'object', 'object[]', 'file'] as const;
export type BaseType = (typeof baseTypes)[number];
/** Sent and Read alike: `cond` is required in some shapes only (the entry's notes say which). */
export const requiredValues = ['yes', 'no', 'cond'] as const;
export const confidences = ['2+', '1', 'docs', 'contract', 'none'] as const;
/** What a citation starts with: a repository (A, R, K, V, AE), a field-notes line, a wire-evidence row, the contract, or none. */
export const citationSources = ['A', 'R', 'K', 'V', 'AE', 'FN', 'WE', 'C'] as const;

/** One alternative of a Type cell: `json string[]` is `{json: true, base: 'string[]'}`. */
export interface TypeAlternative {
  readonly json: boolean;
  readonly base: BaseType;
}

interface RowCommon {
  /** The field as the table writes it (`items[].unit_price`); a cell naming aliases (`` `a` / `b` ``) gives each. */
  readonly names: readonly string[];
  readonly type: string;
  /** The Type cell read; empty when it is outside the vocabulary. */
  readonly types: readonly TypeAlternative[];
  readonly required: string;
  readonly evidence: readonly string[];
  readonly conf: string;
  /** 1-based line in the page. */
  readonly line: number;
}
export interface SentRow extends RowCommon {
  readonly in: string;
}
export type ReadRow = RowCommon;

export interface WireEntry {
  /** The heading: the client's operation name. */
  readonly name: string;
  readonly line: number;
  /** The line under the heading, as written. */
  readonly requestLine: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly body: BodyEncoding | undefined;
  readonly placeholder: boolean;
  /** undefined when the entry has no Sent table. */
  readonly sent: readonly SentRow[] | undefined;
  readonly read: readonly ReadRow[] | undefined;
  /** Table rows whose cells could not be read (wrong count, missing column). */
  readonly badRows: readonly { readonly line: number; readonly message: string }[];
}

export interface WireDoc {
  readonly entries: readonly WireEntry[];
  /** By operation name; the first entry where a name is repeated. */
  readonly byName: ReadonlyMap<string, WireEntry>;
}

export const PLACEHOLDER = 'Entry to be written from the sources';

const SENT_COLUMNS = ['Sent', 'In', 'Type', 'Required', 'Evidence', 'Conf.'] as const;
const READ_COLUMNS = ['Read', 'Type', 'Required', 'Evidence', 'Conf.'] as const;

/** The cells of a Markdown table row: split on pipes that are not escaped, `\|` read as `|`. */
export function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.replace(/\\\|/g, '|').trim());
}

/** The names a field cell gives: every `code span`, or the cell itself when it has none. */
function namesOf(cell: string): string[] {
  const spans = [...cell.matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? '').trim()).filter((n) => n !== '');
  if (spans.length > 0) return spans;
  return cell === '' ? [] : [cell];
}

/** A Type cell as its alternatives (`string \| integer`), or [] when any alternative is outside the vocabulary. */
export function parseType(cell: string): TypeAlternative[] {
  const alternatives = cell
    .replace(/`/g, '')
    .split('|')
    .map((a) => a.trim());
  const read: TypeAlternative[] = [];
  for (const alternative of alternatives) {
    const match = /^(json\s+)?(\S+)$/.exec(alternative);
    const base = match?.[2];
    if (base === undefined || !(baseTypes as readonly string[]).includes(base)) return [];
    read.push({ json: match?.[1] !== undefined, base: base as BaseType });
  }
  return read;
}

/** A `;`-separated Evidence cell as its citations (a `;` inside double quotes belongs to the citation). */
export function citationsOf(cell: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of cell) {
    if (ch === '"') quoted = !quoted;
    if (ch === ';' && !quoted) {
      out.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current.trim());
  return out.filter((c) => c !== '');
}

/** Whether a citation starts with a known source followed by what it cites, or is `none`. */
export function isCitation(citation: string): boolean {
  if (/^none\b/.test(citation)) return true;
  const match = /^([A-Z]+)\s+\S/.exec(citation);
  return match !== null && (citationSources as readonly string[]).includes(match[1] ?? '');
}

const REQUEST_LINE = /^`([A-Z]+) ([^`\s]+)`(?:\s*·\s*body:\s*(\S+))?\s*$/;

export function parseWireDoc(markdown: string): WireDoc {
  const lines = markdown.split(/\r?\n/);
  const entries: WireEntry[] = [];
  let inOperations = false;
  let fence: string | null = null;
  let current: { name: string; line: number; body: { text: string; line: number }[] } | null = null;
  const finish = () => {
    if (current !== null) entries.push(readEntry(current.name, current.line, current.body));
    current = null;
  };
  lines.forEach((text, index) => {
    const line = index + 1;
    const fenceMatch = /^(`{3,}|~{3,})/.exec(text);
    if (fence !== null) {
      if (fenceMatch !== null && fenceMatch[1]?.[0] === fence[0] && (fenceMatch[1]?.length ?? 0) >= fence.length) fence = null;
      current?.body.push({ text: '', line });
      return;
    }
    if (fenceMatch !== null) {
      fence = fenceMatch[1] ?? '```';
      current?.body.push({ text: '', line });
      return;
    }
    if (/^# /.test(text)) {
      finish();
      inOperations = /^# Operations\s*$/.test(text);
      return;
    }
    if (!inOperations) return;
    const heading = /^### (.*)$/.exec(text);
    if (heading !== null) {
      finish();
      current = { name: (heading[1] ?? '').replace(/`/g, '').trim(), line, body: [] };
      return;
    }
    if (/^## /.test(text)) {
      finish();
      return;
    }
    current?.body.push({ text, line });
  });
  finish();
  const byName = new Map<string, WireEntry>();
  for (const entry of entries) if (!byName.has(entry.name)) byName.set(entry.name, entry);
  return { entries, byName };
}

function readEntry(name: string, line: number, body: readonly { text: string; line: number }[]): WireEntry {
  const firstLine = body.find((l) => l.text.trim() !== '');
  const requestLine = firstLine?.text.trim().startsWith('|') ? undefined : firstLine?.text.trim();
  const request = requestLine === undefined ? null : REQUEST_LINE.exec(requestLine);
  const encoding = request?.[3];
  let sent: SentRow[] | undefined;
  let read: ReadRow[] | undefined;
  const badRows: { line: number; message: string }[] = [];
  let table: { kind: 'sent' | 'read'; columns: Map<string, number>; rows: (SentRow | ReadRow)[] } | null = null;
  for (const { text, line: at } of body) {
    const trimmed = text.trim();
    if (!trimmed.startsWith('|')) {
      table = null;
      continue;
    }
    const cells = tableCells(trimmed);
    if (table === null) {
      const kind = cells[0] === 'Sent' ? 'sent' : cells[0] === 'Read' ? 'read' : null;
      if (kind === null) continue;
      const expected: readonly string[] = kind === 'sent' ? SENT_COLUMNS : READ_COLUMNS;
      const columns = new Map(cells.map((c, i) => [c, i]));
      const missing = expected.filter((c) => !columns.has(c));
      if (missing.length > 0) badRows.push({ line: at, message: `the ${cells[0]} table has no ${missing.join(', ')} column` });
      // A second table of the same kind (one per variant, say) adds its rows to the first.
      const rows: (SentRow | ReadRow)[] = kind === 'sent' ? (sent ??= []) : (read ??= []);
      table = { kind, columns, rows };
      continue;
    }
    if (cells.every((c) => /^:?-{3,}:?$/.test(c))) continue;
    const headerCount = table.columns.size;
    if (cells.length !== headerCount) {
      badRows.push({ line: at, message: `${cells.length} cells where the table has ${headerCount} columns` });
      continue;
    }
    const cell = (column: string) => {
      const i = table?.columns.get(column);
      return i === undefined ? '' : (cells[i] ?? '');
    };
    const type = cell('Type');
    const common: RowCommon = {
      names: namesOf(cell(table.kind === 'sent' ? 'Sent' : 'Read')),
      type,
      types: parseType(type),
      required: cell('Required'),
      evidence: citationsOf(cell('Evidence')),
      conf: cell('Conf.'),
      line: at,
    };
    table.rows.push(table.kind === 'sent' ? { ...common, in: cell('In') } : common);
  }
  return {
    name,
    line,
    requestLine,
    method: request?.[1],
    path: request?.[2],
    body: encoding !== undefined && (bodyEncodings as readonly string[]).includes(encoding) ? (encoding as BodyEncoding) : undefined,
    placeholder: body.some((l) => l.text.includes(PLACEHOLDER)),
    sent,
    read,
    badRows,
  };
}

export function readWireDoc(path = WIRE_DOC_PATH): WireDoc {
  return parseWireDoc(readFileSync(path, 'utf8'));
}

// ---------------------------------------------------------------- holding the page to its form

export const problemKinds = [
  'missing-entry',
  'unknown-operation',
  'duplicate-entry',
  'placeholder',
  'request-line',
  'method-path',
  'no-sent-table',
  'no-read-table',
  'row-shape',
  'in',
  'type',
  'required',
  'conf',
  'empty-evidence',
  'citation',
  'unevidenced-required',
  'path-parameter',
] as const;
export type DocProblemKind = (typeof problemKinds)[number];

export interface DocProblem {
  readonly kind: DocProblemKind;
  readonly operation: string;
  /** 1-based line in the page, where there is one. */
  readonly line: number | undefined;
  readonly message: string;
}

export interface OperationLike {
  readonly name: string;
  readonly method: string;
  readonly path: string;
}

/** Every way the page breaks its form or disagrees with the client's operations, in page order. */
export function checkWireDoc(doc: WireDoc, operations: readonly OperationLike[]): DocProblem[] {
  const problems: DocProblem[] = [];
  const known = new Map(operations.map((op) => [op.name, op]));
  const seen = new Set<string>();
  for (const entry of doc.entries) {
    const add = (kind: DocProblemKind, message: string, line = entry.line) => problems.push({ kind, operation: entry.name, line, message });
    if (seen.has(entry.name)) {
      add('duplicate-entry', `a second entry for ${entry.name}`);
      continue;
    }
    seen.add(entry.name);
    const op = known.get(entry.name);
    if (op === undefined) {
      add('unknown-operation', `${entry.name} is not an operation of the client (electron/payer/operations.ts)`);
      continue;
    }
    problems.push(...entryProblems(entry, op));
  }
  for (const op of operations) {
    if (!seen.has(op.name)) problems.push({ kind: 'missing-entry', operation: op.name, line: undefined, message: `no entry for ${op.name} (${op.method} ${op.path})` });
  }
  return problems;
}

function entryProblems(entry: WireEntry, op: OperationLike): DocProblem[] {
  const problems: DocProblem[] = [];
  const add = (kind: DocProblemKind, message: string, line = entry.line) => problems.push({ kind, operation: entry.name, line, message });
  if (entry.placeholder) add('placeholder', `the entry is still the placeholder line ("${PLACEHOLDER} …")`);
  if (entry.method === undefined || entry.path === undefined) {
    add('request-line', `the line under the heading must be \`METHOD /path\` · body: json|form|multipart|none, found: ${entry.requestLine ?? 'nothing'}`);
  } else {
    if (entry.method !== op.method || entry.path !== op.path) add('method-path', `the entry says ${entry.method} ${entry.path}, the client sends ${op.method} ${op.path}`);
    if (entry.body === undefined) add('request-line', `no \`· body: json|form|multipart|none\` after the path: ${entry.requestLine ?? ''}`);
  }
  if (entry.placeholder && entry.sent === undefined && entry.read === undefined) return problems;
  if (entry.sent === undefined) add('no-sent-table', 'no Sent table (| Sent | In | Type | Required | Evidence | Conf. |)');
  if (entry.read === undefined) add('no-read-table', 'no Read table (| Read | Type | Required | Evidence | Conf. |)');
  for (const bad of entry.badRows) add('row-shape', bad.message, bad.line);
  const rows: { row: SentRow | ReadRow; table: 'Sent' | 'Read' }[] = [
    ...(entry.sent ?? []).map((row) => ({ row, table: 'Sent' as const })),
    ...(entry.read ?? []).map((row) => ({ row, table: 'Read' as const })),
  ];
  for (const { row, table } of rows) {
    const label = `${table} row \`${row.names.join('` / `') || '(no name)'}\``;
    const rowAdd = (kind: DocProblemKind, message: string) => add(kind, `${label}: ${message}`, row.line);
    if (row.names.length === 0) rowAdd('row-shape', 'names no field');
    if ('in' in row && !(sentIn as readonly string[]).includes(row.in)) rowAdd('in', `In is "${row.in}", not one of ${sentIn.join(', ')}`);
    if (row.types.length === 0) rowAdd('type', `Type is "${row.type}", not one of ${baseTypes.join(', ')} or json <type>`);
    else if ('in' in row && (row.in === 'file') !== row.types.every((t) => t.base === 'file')) rowAdd('type', 'a file part (In file) is typed `file`, and only a file part is');
    if (!(requiredValues as readonly string[]).includes(row.required)) rowAdd('required', `Required is "${row.required}", not one of ${requiredValues.join(', ')}`);
    if (!(confidences as readonly string[]).includes(row.conf)) rowAdd('conf', `Conf. is "${row.conf}", not one of ${confidences.join(', ')}`);
    if (row.evidence.length === 0) {
      rowAdd('empty-evidence', 'the Evidence cell is empty: cite a source or write `none`');
    } else {
      for (const citation of row.evidence) {
        if (!isCitation(citation)) rowAdd('citation', `"${citation}" does not start with ${citationSources.join(', ')} and what it cites, or none`);
      }
    }
    const unevidenced = row.evidence.length > 0 && row.evidence.every((c) => /^none\b/.test(c));
    if (table === 'Sent' && row.required === 'yes' && (unevidenced || row.conf === 'none')) {
      rowAdd('unevidenced-required', 'a field without evidence is never required (Required yes, evidence none)');
    }
  }
  if (entry.sent !== undefined) {
    for (const match of op.path.matchAll(/\{([^}]+)\}/g)) {
      const parameter = match[1] ?? '';
      if (!entry.sent.some((row) => row.in === 'path' && row.names.includes(parameter))) add('path-parameter', `the path's {${parameter}} has no Sent row with In path`);
    }
  }
  return problems;
}

/** Problems grouped by operation, one block per entry, for a failure message a reader can act on. */
export function formatDocProblems(problems: readonly DocProblem[]): string {
  const byOperation = new Map<string, DocProblem[]>();
  for (const p of problems) byOperation.set(p.operation, [...(byOperation.get(p.operation) ?? []), p]);
  return [...byOperation]
    .map(([operation, list]) => `${operation}\n${list.map((p) => `  - [${p.kind}]${p.line === undefined ? '' : ` line ${p.line}`}: ${p.message}`).join('\n')}`)
    .join('\n');
}
