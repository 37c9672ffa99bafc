// Holds an answer to the documented shapes of its operation: every field it shares with a response
// fixture has the fixture's JSON type and nesting, and it carries no field that is in neither a
// fixture nor the entry's Read table. Paths are written as the page writes them: `a.b`,
// `items[].unit_price`, and `[].id` for the members of a bare array.
import type { ReadRow, TypeAlternative } from './wire-doc';

export type JsonKind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export function jsonKind(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const kind = typeof value;
  if (kind === 'string' || kind === 'number' || kind === 'boolean') return kind;
  if (kind === 'object') return 'object';
  throw new TypeError(`not a JSON value: ${kind}`);
}

const child = (prefix: string, key: string) => (prefix === '' ? key : `${prefix}.${key}`);

/** Every path of a JSON value (the root is '') with the kinds seen there across array members. */
export function pathsOf(value: unknown, prefix = '', into = new Map<string, Set<JsonKind>>()): Map<string, Set<JsonKind>> {
  const kinds = into.get(prefix) ?? new Set<JsonKind>();
  kinds.add(jsonKind(value));
  into.set(prefix, kinds);
  if (Array.isArray(value)) {
    for (const item of value) pathsOf(item, `${prefix}[]`, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) pathsOf(member, child(prefix, key), into);
  }
  return into;
}

/** A JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every value found at a page path (`a.b`, `items[].c`, `[].id`) below `root`. */
export function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const segment of path.split('.')) {
    const key = segment.replace(/(\[\])+$/, '');
    const depth = (segment.length - key.length) / 2;
    let next: unknown[] = key === '' ? current : [];
    if (key !== '') for (const value of current) if (isJsonObject(value) && key in value) next.push(value[key]);
    for (let i = 0; i < depth; i++) next = next.flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : []));
    current = next;
  }
  return current;
}

/** A deep copy of `value` without the member a page path names, wherever it occurs (`results[].token`: in every result). */
export function withoutField(value: unknown, path: string): unknown {
  const copy = structuredClone(value);
  const cut = path.lastIndexOf('.');
  const parentPath = cut < 0 ? '' : path.slice(0, cut);
  const key = cut < 0 ? path : path.slice(cut + 1);
  for (const parent of parentPath === '' ? [copy] : valuesAt(copy, parentPath)) if (isJsonObject(parent)) delete parent[key];
  return copy;
}

/** The JSON kinds a Type cell of the page allows (`json …` travels as a string). */
export function kindsOfType(types: readonly TypeAlternative[]): Set<JsonKind> {
  const kinds = new Set<JsonKind>();
  for (const t of types) {
    if (t.json) {
      kinds.add('string');
      continue;
    }
    switch (t.base) {
      case 'string':
      case 'date':
      case 'date-time':
      case 'file':
        kinds.add('string');
        break;
      case 'integer':
      case 'number':
        kinds.add('number');
        break;
      case 'boolean':
        kinds.add('boolean');
        break;
      case 'object':
        kinds.add('object');
        break;
      case 'string[]':
      case 'object[]':
        kinds.add('array');
        break;
    }
  }
  return kinds;
}

export interface ShapeProblem {
  readonly kind: 'type' | 'unknown-field';
  /** The path in the answer, e.g. `results[].status`. */
  readonly path: string;
  readonly message: string;
}

const describeKinds = (kinds: Iterable<JsonKind>) => [...kinds].sort().join(' or ');

/**
 * The ways `answer` leaves the shapes of `fixtures` and `readRows`. A null agrees with any type
 * (JSON null carries none); a field only the Read table names must have one of its Type's JSON kinds.
 */
export function compareShape(answer: unknown, fixtures: readonly unknown[], readRows: readonly Pick<ReadRow, 'names' | 'types'>[]): ShapeProblem[] {
  const documented = new Map<string, Set<JsonKind>>();
  for (const fixture of fixtures) pathsOf(fixture, '', documented);
  const rootIsArray = Array.isArray(answer);
  const rowKinds = new Map<string, Set<JsonKind>>();
  const addRow = (name: string, kinds: Set<JsonKind>) => {
    rowKinds.set(name, kinds);
    // The members of a bare array may be named without the leading `[].`.
    if (rootIsArray && !name.startsWith('[]')) rowKinds.set(`[].${name}`, kinds);
  };
  for (const row of readRows) {
    // A `string[]` or `object[]` row says what its members are, too.
    const members = new Set<JsonKind>(row.types.flatMap((t) => (t.json ? [] : t.base === 'string[]' ? ['string' as const] : t.base === 'object[]' ? ['object' as const] : [])));
    for (const name of row.names) {
      addRow(name, kindsOfType(row.types));
      if (members.size > 0) addRow(`${name}[]`, members);
    }
  }
  const problems: ShapeProblem[] = [];
  // Below a field already reported, its members would only repeat the finding.
  const reported: string[] = [];
  const below = (path: string) => reported.some((p) => path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
  const root = documented.get('');
  if (root !== undefined && fixtures.length > 0) {
    const rootKind = jsonKind(answer);
    if (rootKind !== 'null' && !root.has(rootKind)) {
      problems.push({ kind: 'type', path: '', message: `the answer is ${rootKind} where the fixtures are ${describeKinds(root)}` });
      return problems;
    }
  }
  for (const [path, kinds] of pathsOf(answer)) {
    if (path === '' || below(path)) continue;
    const before = problems.length;
    problems.push(...fieldProblems(path, kinds, documented.get(path), rowKinds.get(path)));
    if (problems.length > before) reported.push(path);
  }
  return problems;
}

function fieldProblems(path: string, kinds: ReadonlySet<JsonKind>, fromFixtures: ReadonlySet<JsonKind> | undefined, fromRow: ReadonlySet<JsonKind> | undefined): ShapeProblem[] {
  const seen = [...kinds].filter((k) => k !== 'null');
  if (fromFixtures !== undefined) {
    const allowed = [...fromFixtures].filter((k) => k !== 'null');
    const wrong = seen.filter((k) => !allowed.includes(k));
    if (allowed.length === 0 || wrong.length === 0) return [];
    return [{ kind: 'type', path, message: `\`${path}\` is ${describeKinds(wrong)} where the fixtures have ${describeKinds(allowed)}` }];
  }
  if (fromRow !== undefined) {
    const wrong = seen.filter((k) => !fromRow.has(k));
    if (wrong.length === 0) return [];
    return [{ kind: 'type', path, message: `\`${path}\` is ${describeKinds(wrong)} where the Read table says ${describeKinds(fromRow)}` }];
  }
  return [{ kind: 'unknown-field', path, message: `\`${path}\` is in no fixture of the operation and no row of its Read table` }];
}
