// The strings come in parts: the words several screens share (renderer/i18n/en.json, sw.json) and
// each feature's own (renderer/features/<area>/en.json, sw.json). A namespace (a top-level key such
// as `claims` or `lookup`) lives in exactly one part, and keys keep their full names, so a namespace
// can move between folders without a t() call changing and no two parts can silently overwrite
// each other's words.

export type Catalogue = { readonly [key: string]: string | Catalogue };

/** The parts of one language, by where each was read, as one catalogue; a namespace in two parts is an error naming both. */
export function mergeCatalogues(parts: Readonly<Record<string, Catalogue>>): Catalogue {
  const merged: Record<string, string | Catalogue> = {};
  const home = new Map<string, string>();
  for (const [where, part] of Object.entries(parts)) {
    for (const [namespace, words] of Object.entries(part)) {
      const first = home.get(namespace);
      if (first !== undefined) throw new Error(`The strings' namespace "${namespace}" is in both ${first} and ${where}: keep it in one folder.`);
      home.set(namespace, where);
      merged[namespace] = words;
    }
  }
  return merged;
}
