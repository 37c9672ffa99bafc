// A feature's English words travel with the code that shows them. Each module that names a
// namespace of a feature folder's en.json ('claims.navNeeds', `scenario.${s}.name`, a key kept in a
// table) gets an import of that folder's words, registered with i18next as the module is evaluated
// (renderer/i18n/english.ts). So the bundler puts each feature's words in the chunk of the first
// screen that needs them: the look-up's in the first bundle, the claims' with the Claims screen, a
// namespace two lazy screens share in their shared chunk — and a screen never draws before its words.
// The shared words (renderer/i18n/en.json) and all of Kiswahili (loaded whole, on first use) are not
// split this way.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:feature-words/';

type Words = { readonly [key: string]: string | Words };

/** A feature folder's namespace: the folder that holds it, and its words. */
export interface Namespace {
  readonly folder: string;
  readonly words: Words;
}

/** Every namespace of the feature folders' en.json, with the folder that holds it. */
export function namespaces(featuresDir: string): Map<string, Namespace> {
  const found = new Map<string, Namespace>();
  for (const folder of readdirSync(featuresDir, { withFileTypes: true })) {
    const file = join(featuresDir, folder.name, 'en.json');
    if (!folder.isDirectory() || !existsSync(file)) continue;
    for (const [name, words] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Words>)) found.set(name, { folder: folder.name, words });
  }
  return found;
}

/** Whether a key (without its namespace) names words or a group of them; a plural's base names its forms. */
function holds(words: Words, path: readonly string[]): boolean {
  let node: string | Words = words;
  for (const [i, part] of path.entries()) {
    if (typeof node === 'string') return false;
    const last = i === path.length - 1;
    if (last && node[part] === undefined) return [`${part}_one`, `${part}_other`, `${part}_zero`].some((form) => (node as Words)[form] !== undefined);
    node = node[part] as string | Words;
    if (node === undefined) return false;
  }
  return true;
}

/**
 * The feature folders whose words a module's source names: a string literal that is one of their
 * keys ('claims.documents.needFile'; a command name such as 'claims.list' is not), or a template
 * literal that starts with one of their namespaces (`scenario.${s}.name`). A key built any other
 * way is not seen: a module that builds one names its namespace in a literal too.
 */
export function foldersNamed(source: string, known: ReadonlyMap<string, Namespace>): string[] {
  const folders = new Set<string>();
  for (const match of source.matchAll(/'([a-zA-Z]\w*)\.([\w.-]+)'|"([a-zA-Z]\w*)\.([\w.-]+)"|`([a-zA-Z]\w*)\./g)) {
    const name = (match[1] ?? match[3] ?? match[5]) as string;
    const namespace = known.get(name);
    if (namespace === undefined) continue;
    const rest = match[2] ?? match[4];
    if (rest === undefined || holds(namespace.words, rest.split('.'))) folders.add(namespace.folder);
  }
  return [...folders].sort();
}

export interface FeatureWords extends Plugin {
  /** Whether a module (a folder's words, or their registration) belongs with the first screen: a module of it names them. */
  forFirstScreen(id: string): boolean;
}

/** `firstScreen`: whether a module is in the first bundle (vite.config.ts). */
export function featureWords(rendererDir: string, firstScreen: (id: string) => boolean): FeatureWords {
  const featuresDir = join(rendererDir, 'features');
  let known = new Map<string, Namespace>();
  const atStart = new Set<string>();
  return {
    name: 'idhini-feature-words',
    forFirstScreen(id) {
      const path = id.replaceAll('\\', '/');
      const folder = path.startsWith(`\0${PREFIX}`) ? path.slice(PREFIX.length + 1) : /\/renderer\/features\/([\w-]+)\/en\.json$/.exec(path)?.[1];
      return folder !== undefined && atStart.has(folder);
    },
    enforce: 'pre',
    buildStart() {
      known = namespaces(featuresDir);
    },
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const folder = id.slice(PREFIX.length + 1);
      const words = JSON.stringify(join(featuresDir, folder, 'en.json'));
      const registry = JSON.stringify(join(rendererDir, 'i18n', 'english.ts'));
      return `import words from ${words};\nimport { addFeatureWords } from ${registry};\naddFeatureWords(${JSON.stringify(folder)}, words);\n`;
    },
    transform(code, id) {
      const path = id.replaceAll('\\', '/');
      if (!/\.tsx?$/.test(path) || !path.startsWith(rendererDir.replaceAll('\\', '/')) ) return null;
      const folders = foldersNamed(code, known);
      if (folders.length === 0) return null;
      if (firstScreen(path)) for (const folder of folders) atStart.add(folder);
      // At the end, so every line keeps its place (import declarations are hoisted all the same).
      return { code: `${code}\n${folders.map((f) => `import '${PREFIX}${f}';`).join('\n')}\n`, map: null };
    },
  };
}
