// Every string that takes a noun (or any words) from another key agrees with it in Kiswahili: the
// strings are found in the renderer's source (test/support/concord.ts), each is rendered by i18next
// in Kiswahili with every value it can take — in its own sentence where the call names an i18next
// context — and the words next to the noun are held to the noun's class.
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogue, flatten } from '../../support/catalogues';
import { concordProblems, findNounPlaceholders, nounClasses, subjectPrefix } from '../../support/concord';
import type { KeyPattern, NounPlaceholder } from '../../support/concord';

const swahili = flatten(catalogue('sw'));
const english = flatten(catalogue('en'));
/** Keys as t() names them: plural and context forms under their base. */
const baseKeys = [...new Set([...swahili.keys()].map((key) => key.replace(/_(one|other)$/, '')))];
const classes = nounClasses();
let found: NounPlaceholder[];
const sw = i18next.createInstance();

beforeAll(async () => {
  found = findNounPlaceholders();
  await sw.init({ lng: 'sw', resources: { sw: { translation: catalogue('sw') } }, interpolation: { escapeValue: false }, initAsync: false });
}, 60_000);

const keysOf = (pattern: KeyPattern) => baseKeys.filter((key) => pattern.regex.test(key));

/** Every rendering of one found string: the sentence, the words put in, and the sentence's words before them. */
function renderings(entry: NounPlaceholder): { outer: string; value: string; sentence: string; before: string }[] {
  const out: { outer: string; value: string; sentence: string; before: string }[] = [];
  for (const outer of entry.outer.flatMap(keysOf)) {
    for (const inner of entry.inner.flatMap(keysOf)) {
      for (const count of swahili.has(`${outer}_one`) ? [1, 3] : [undefined]) {
        const value = sw.t(inner, { count: 1, name: 'Amina Wekesa', kind: 'X', code: 'X', status: 'X' });
        const context = entry.context ? inner.split('.').at(-1) : undefined;
        const options = { [entry.placeholder]: value, count, context, name: 'Amina Wekesa', code: 'SHA-04-001', time: 'saa 09:41', date: '12 Jun 2026' };
        const sentence = sw.t(outer, options);
        const template = sw.t(outer, { ...options, [entry.placeholder]: '\u0000' });
        out.push({ outer, value, sentence, before: template.split('\u0000')[0] ?? '' });
      }
    }
  }
  return out;
}

describe('Kiswahili concord with the nouns a string takes from another', () => {
  it('finds the strings taking a noun, from the source', () => {
    const pairs = found.map((entry) => `${entry.outer.map((p) => p.text).join('|')} ${entry.placeholder}`);
    // The ones issue 26 found broken, and the words SHA did not say in a review.
    expect(pairs).toEqual(expect.arrayContaining(['work.continueWith kind', 'activity.event.other kind', 'pharmacyFind.shaStatus review', 'lookup.notFound.body idType']));
    // Through a local function's returns too (the activity's words for an exchange call).
    expect(pairs).toEqual(expect.arrayContaining(["`activity.exchange.${record.outcome}` what"]));
    expect(found.find((e) => e.outer[0]?.text === 'work.continueWith')?.context).toBe(true);
  });

  it('resolves every key of them to the catalogue', () => {
    const unresolved = found.flatMap((entry) => [
      ...entry.outer.filter((p) => keysOf(p).length === 0).map((p) => `${entry.where}: ${p.text}`),
      ...entry.inner.filter((p) => keysOf(p).length === 0).map((p) => `${entry.where}: ${entry.placeholder} ← ${p.text}`),
    ]);
    expect(unresolved).toEqual([]);
  });

  it('has each string with a noun by context in every context, in both languages', () => {
    const missing = found
      .filter((entry) => entry.context)
      .flatMap((entry) => entry.outer.flatMap(keysOf).flatMap((outer) => entry.inner.flatMap(keysOf).map((inner) => `${outer}_${inner.split('.').at(-1)}`)))
      .filter((key) => !swahili.has(key) || !english.has(key));
    expect(missing).toEqual([]);
  });

  it('agrees in every rendering of every one of them', () => {
    const problems: string[] = [];
    let rendered = 0;
    for (const entry of found) {
      for (const { outer, value, sentence, before } of renderings(entry)) {
        rendered += 1;
        for (const problem of concordProblems(sentence, value, classes, before)) problems.push(`${entry.where} ${outer} with "${value}": "${sentence}": ${problem}`);
      }
    }
    expect(rendered).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('catches the breaks the issue found, and passes their fixes', () => {
    expect(concordProblems('Endelea na Kulazwa kulikopangwa ya Amina', 'Kulazwa kulikopangwa', classes, 'Endelea na ')).not.toEqual([]);
    expect(concordProblems('Dai la dharura imeendelea', 'Dai la dharura', classes, '')).not.toEqual([]);
    expect(concordProblems('Mwisho wa ziara imeendelea', 'Mwisho wa ziara', classes, '')).not.toEqual([]);
    expect(concordProblems('Hali kwa SHA: X · mapitio ya daktari aliyeandika: haijatajwa', 'haijatajwa', classes, 'Hali kwa SHA: X · mapitio ya daktari aliyeandika: ')).not.toEqual([]);
    expect(concordProblems('Endelea na kulazwa kulikopangwa kwa Amina', 'Kulazwa kulikopangwa', classes, 'Endelea na ')).toEqual([]);
    expect(concordProblems('Mwisho wa ziara umeendelea', 'Mwisho wa ziara', classes, '')).toEqual([]);
    expect(concordProblems('Endelea na mwisho wa ziara ya Amina', 'Mwisho wa ziara', classes, 'Endelea na ')).toEqual([]);
    expect(concordProblems('Kuchukua ridhaa kumeendelea', 'Ridhaa', classes, '')).toEqual([]);
    expect([subjectPrefix('limeendelea'), subjectPrefix('haijatajwa'), subjectPrefix('kumeendelea'), subjectPrefix('kila'), subjectPrefix('SHA')]).toEqual(['li', 'i', 'ku', null, null]);
  });
});
