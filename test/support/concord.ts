// Which of the renderer's strings take a noun from another string, found in the source, and whether
// the Kiswahili words next to that noun agree with its class.
//
// The finder reads the renderer with the TypeScript compiler: every `t(key, { placeholder: … })`
// whose value is itself the words of another key — a `t(…)` call, or a variable or a local function
// that holds or returns one — is a string taking a noun (or a phrase) from the catalogue. Keys are
// patterns where the source builds them (`work.kind.${view.kind}` is every work.kind.* key).
//
// The checker knows Kiswahili's concord for the noun classes the station uses: a noun's class fixes
// the subject prefix of the verb it governs (ziara i-meendelea, dai li-meendelea, kulazwa
// ku-meendelea, mwisho u-meendelea) and the associative after it (ziara ya, dai la, kulazwa kwa,
// mwisho wa). The class of a head noun is in renderer/i18n/glossary.json (nounClasses).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '../..');

/** A string of the catalogue as the source names it: exactly, or a pattern for a key built at run time. */
export interface KeyPattern {
  readonly text: string;
  readonly regex: RegExp;
}

export interface NounPlaceholder {
  readonly where: string;
  readonly outer: readonly KeyPattern[];
  readonly placeholder: string;
  readonly inner: readonly KeyPattern[];
  /** The call names an i18next context: a string of its own per value (keyed by the inner key's last part). */
  readonly context: boolean;
}

/** Options of t() that are not placeholders. */
const NOT_PLACEHOLDERS = new Set(['defaultValue', 'count', 'context', 'ns', 'lng', 'returnObjects', 'keySeparator']);

function pattern(expression: ts.Expression, checker: ts.TypeChecker, depth = 0): KeyPattern[] {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [exact(expression.text)];
  if (ts.isTemplateExpression(expression)) {
    const parts = [escape(expression.head.text), ...expression.templateSpans.flatMap((span) => ['[^.]+', escape(span.literal.text)])];
    return [{ text: expression.getText(), regex: new RegExp(`^${parts.join('')}$`) }];
  }
  if (ts.isConditionalExpression(expression)) return [...pattern(expression.whenTrue, checker, depth), ...pattern(expression.whenFalse, checker, depth)];
  if (ts.isParenthesizedExpression(expression)) return pattern(expression.expression, checker, depth);
  if (ts.isIdentifier(expression) && depth < 3) {
    const declaration = checker.getSymbolAtLocation(expression)?.valueDeclaration;
    if (declaration !== undefined && ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) return pattern(declaration.initializer, checker, depth + 1);
  }
  return [{ text: expression.getText(), regex: /^$/ }];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exact = (key: string): KeyPattern => ({ text: key, regex: new RegExp(`^${escape(key)}$`) });

const isT = (node: ts.Node): node is ts.CallExpression => ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't';

/** The catalogue keys whose words a value can be: t() calls in it, or in what it names (a variable, a local function's returns). */
function innerKeys(value: ts.Node, checker: ts.TypeChecker, depth = 0): KeyPattern[] {
  const found: KeyPattern[] = [];
  const visit = (node: ts.Node) => {
    if (isT(node) && node.arguments[0] !== undefined) {
      found.push(...pattern(node.arguments[0], checker));
      return;
    }
    if (depth < 3 && ts.isIdentifier(node)) {
      const declaration = checker.getSymbolAtLocation(node)?.valueDeclaration;
      if (declaration !== undefined && ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined && declaration.getSourceFile() === node.getSourceFile()) {
        found.push(...innerKeys(declaration.initializer, checker, depth + 1));
      }
    }
    if (depth < 3 && ts.isCallExpression(node) && !(ts.isIdentifier(node.expression) && node.expression.text === 't')) {
      const declaration = checker.getSymbolAtLocation(node.expression)?.valueDeclaration;
      if (declaration !== undefined && (ts.isFunctionDeclaration(declaration) || ts.isArrowFunction(declaration) || ts.isFunctionExpression(declaration)) && declaration.body !== undefined) {
        if (!declaration.getSourceFile().fileName.includes('/node_modules/')) found.push(...returnedKeys(declaration.body, checker, depth + 1));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(value);
  return found;
}

function returnedKeys(body: ts.Node, checker: ts.TypeChecker, depth: number): KeyPattern[] {
  if (!ts.isBlock(body)) return innerKeys(body, checker, depth);
  const found: KeyPattern[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isReturnStatement(node) && node.expression !== undefined) found.push(...innerKeys(node.expression, checker, depth));
    else if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** Every t() call in the renderer whose placeholder takes the words of another key. */
export function findNounPlaceholders(): NounPlaceholder[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'renderer/tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error('renderer/tsconfig.json could not be read');
  // Only the renderer's own files, bound and not type-checked: the finder follows names within a file
  // (a variable, a local function), so the libraries' and the DOM's declarations would only cost time.
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true, noResolve: true, noLib: true, types: [] } });
  const checker = program.getTypeChecker();
  const out: NounPlaceholder[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(join(root, 'renderer/')) || file.isDeclarationFile) continue;
    const visit = (node: ts.Node) => {
      const options = isT(node) ? node.arguments[1] : undefined;
      if (isT(node) && node.arguments[0] !== undefined && options !== undefined && ts.isObjectLiteralExpression(options)) {
        const context = options.properties.some((p) => p.name !== undefined && p.name.getText() === 'context');
        for (const property of options.properties) {
          const name = property.name?.getText();
          if (name === undefined || NOT_PLACEHOLDERS.has(name)) continue;
          const value = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined;
          if (value === undefined) continue;
          const inner = innerKeys(value, checker);
          if (inner.length === 0) continue;
          const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          out.push({ where: `${relative(root, file.fileName)}:${line}`, outer: pattern(node.arguments[0], checker), placeholder: name, inner, context });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return out;
}

// ---- Kiswahili concord

export type NounClass = 'n' | 'li' | 'ku' | 'u' | 'ki' | 'a' | 'ma' | 'zi' | 'vi' | 'wa';

/** Each class's subject prefix and associative. */
export const CONCORD: Readonly<Record<NounClass, { readonly subject: string; readonly of: string }>> = {
  n: { subject: 'i', of: 'ya' },
  li: { subject: 'li', of: 'la' },
  ku: { subject: 'ku', of: 'kwa' },
  u: { subject: 'u', of: 'wa' },
  ki: { subject: 'ki', of: 'cha' },
  a: { subject: 'a', of: 'wa' },
  ma: { subject: 'ya', of: 'ya' },
  zi: { subject: 'zi', of: 'za' },
  vi: { subject: 'vi', of: 'vya' },
  wa: { subject: 'wa', of: 'wa' },
};

const ASSOCIATIVES = new Set(['ya', 'la', 'kwa', 'wa', 'cha', 'za', 'vya', 'pa', 'mwa']);
const SUBJECTS = ['li', 'ya', 'ki', 'vi', 'zi', 'ku', 'wa', 'i', 'u', 'a'];
const TENSES = ['me', 'na', 'ta', 'li', 'ja', 'ku', 'ki', 'nge', 'si', 'po'];

/** The subject prefix of a verb ("limeendelea" → li, "haijatajwa" → i), or null for a word that is not one. */
export function subjectPrefix(word: string): string | null {
  const bare = word.toLowerCase().replace(/^ha(?=[a-z])/, '');
  for (const subject of SUBJECTS) {
    if (!bare.startsWith(subject)) continue;
    const rest = bare.slice(subject.length);
    if (TENSES.some((tense) => rest.startsWith(tense) && rest.length > tense.length + 1)) return subject;
  }
  return null;
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}]+|[^\s\p{L}]/gu) ?? [];

/**
 * What does not agree around a noun phrase put into a sentence: the word right after it (a verb's
 * subject prefix agrees with the phrase's head; an associative with the head or, for "X wa Y ya …",
 * the last noun), and a verb put after a noun of the sentence ("mapitio …: {{review}}").
 */
export function concordProblems(sentence: string, inserted: string, classes: Readonly<Record<string, NounClass>>, before: string): string[] {
  const problems: string[] = [];
  const phrase = wordsOf(inserted).filter((w) => /\p{L}/u.test(w));
  const words = wordsOf(sentence);
  const classOf = (noun: string | undefined) => (noun === undefined ? undefined : classes[noun]);
  // After the phrase.
  for (let i = 0; i + phrase.length <= words.length && phrase.length > 0; i += 1) {
    if (!phrase.every((w, j) => words[i + j] === w)) continue;
    const next = words[i + phrase.length];
    if (next === undefined || !/\p{L}/u.test(next)) continue;
    // A phrase after an infinitive is its object ("kuchukua ridhaa kumeendelea"): the infinitive (ku-) governs.
    const governed = /^ku\p{L}{3,}$/u.test(words[i - 1] ?? '');
    const head = governed ? 'ku' : classOf(phrase[0]);
    const last = classOf(phrase.at(-1));
    const prefix = subjectPrefix(next);
    const agrees = (cls: NounClass | undefined, kind: 'subject' | 'of') => cls !== undefined && CONCORD[cls][kind] === (kind === 'of' ? next : prefix);
    if (ASSOCIATIVES.has(next)) {
      if (head === undefined) problems.push(`"${phrase[0]}" has no noun class in the glossary, and "${next}" follows it`);
      else if (!agrees(head, 'of') && !agrees(last, 'of') && !agrees(classOf(phrase[0]), 'of')) problems.push(`"${next}" after "${inserted}" (${head}: ${CONCORD[head].of})`);
    } else if (prefix !== null) {
      if (head === undefined) problems.push(`"${phrase[0]}" has no noun class in the glossary, and the verb "${next}" follows it`);
      else if (!agrees(head, 'subject')) problems.push(`"${next}" after "${inserted}" (${head}: ${CONCORD[head].subject}-)`);
    }
  }
  // A verb put in after a noun of the sentence: the clause's head noun, the first word after the last separator.
  const first = phrase[0];
  const prefix = first === undefined ? null : subjectPrefix(first);
  if (prefix !== null) {
    const clause = wordsOf(before.split(/[·;,(]/).at(-1) ?? '').filter((w) => /\p{L}/u.test(w));
    const head = classOf(clause[0]);
    if (head !== undefined && CONCORD[head].subject !== prefix) problems.push(`"${first}" after "${clause.join(' ')}" (${head}: ${CONCORD[head].subject}-)`);
  }
  return problems;
}

/** The glossary's noun classes (renderer/i18n/glossary.json). */
export function nounClasses(): Record<string, NounClass> {
  const glossary = JSON.parse(readFileSync(join(root, 'renderer/i18n/glossary.json'), 'utf8')) as { nounClasses: { sw: Record<string, NounClass> } };
  return glossary.nounClasses.sw;
}
