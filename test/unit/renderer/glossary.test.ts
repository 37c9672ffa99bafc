// The glossary the translators keep (renderer/i18n/glossary.json) holds every catalogue to one term
// per concept: wherever an English text names a concept, its Swahili says the concept's term, and
// the words the glossary retires are nowhere. The catalogues: the renderer's (every en.json and sw.json, merged) and
// the sandbox's authorization page, which patients read.
import { describe, expect, it } from 'vitest';
import { fingerLabel, fingerLabelSw, pageWords } from '../../../electron/sandbox/page/authorization-page';
import { FINGERS } from '../../../electron/sandbox/world/patients';
import glossary from '../../../renderer/i18n/glossary.json';
import { catalogue, flatten } from '../../support/catalogues';

/** Every catalogue as pairs of an English text and its Swahili, by a key naming where it lives. */
function catalogues(): Map<string, { en: string; sw: string }> {
  const pairs = new Map<string, { en: string; sw: string }>();
  const english = flatten(catalogue('en'));
  const swahili = flatten(catalogue('sw'));
  for (const [key, text] of english) pairs.set(`renderer ${key}`, { en: text, sw: swahili.get(key) ?? '' });
  for (const key of Object.keys(pageWords.en) as (keyof typeof pageWords.en)[]) pairs.set(`authorization page ${key}`, { en: pageWords.en[key], sw: pageWords.sw[key] });
  for (const finger of FINGERS) pairs.set(`authorization page finger ${finger}`, { en: fingerLabel(finger), sw: fingerLabelSw(finger) });
  return pairs;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A form as a whole word (or words), any case: in Swahili each inflected form is listed, so no stem passes inside another word. */
const wordIn = (forms: readonly string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${forms.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'iu');
/** A Swahili text without the English glosses Kenyan staff say, allowed in brackets after their term ("msimbo wa SMS (OTP)"). */
const withoutGlosses = (text: string) => glossary.glosses.sw.reduce((rest, gloss) => rest.split(gloss).join(' '), text);

/** What in a text is not words to translate: placeholders, and the station's action codes (exchange.claims). */
const withoutPlaceholders = (text: string) => text.replace(/\{\{\w+\}\}/g, ' ').replace(/\b\w+(?:\.\w+)+\b/g, ' ');

describe('the glossary', () => {
  const pairs = catalogues();

  it('is a list of concepts, each with its English forms, its Swahili term and forms', () => {
    expect(glossary.concepts.length).toBeGreaterThanOrEqual(15);
    for (const concept of glossary.concepts) {
      expect(concept.en.length, concept.concept).toBeGreaterThan(0);
      expect(concept.sw.length, concept.concept).toBeGreaterThan(0);
    }
    // The terms the issue fixed for ward staff.
    const swOf = (english: string) => glossary.concepts.find((c) => c.en.includes(english))?.sw;
    expect(swOf('station')).toEqual(expect.arrayContaining(['kompyuta hii', 'skrini']));
    expect(swOf('consent')).toEqual(['ridhaa']);
    expect(swOf('preauthorization')).toContain('kibali cha awali');
    expect(swOf('SMS code')).toContain('msimbo wa SMS');
    expect(swOf('reader')).toContain('kisomaji');
    expect(swOf('eligibility')).toEqual(['hali ya bima']);
    expect(swOf('export')).toContain('pakua');
    // The terms issue 26 added: approval has a noun, and staff, credentials, benefit, dose and refill their words.
    expect(swOf('approval')).toContain('uidhinishaji');
    expect(swOf('staff')).toEqual(['mfanyakazi', 'wafanyakazi']);
    expect(swOf('credentials')).toEqual(['taarifa za kuingia']);
    expect(swOf('benefit')).toEqual(['fao', 'mafao']);
    expect(swOf('dose')).toEqual(['dozi']);
    expect(swOf('refill')).toEqual(['kujazwa tena']);
    expect(swOf('health record')).toEqual(['rekodi ya afya']);
    expect(swOf('reference number')).toContain('nambari ya kumbukumbu');
  });

  it('lists only Swahili forms in use, each a whole word or phrase', () => {
    const swahili = [...pairs.values()].map(({ sw: text }) => withoutGlosses(text));
    const unused = glossary.concepts.flatMap((concept) => concept.sw.filter((form) => !swahili.some((text) => wordIn([form]).test(text))).map((form) => `${concept.concept}: ${form}`));
    expect(unused).toEqual([]);
  });

  it('is kept by every catalogue: an English text naming a concept has its Swahili term', () => {
    expect(pairs.size).toBeGreaterThan(600);
    const broken: string[] = [];
    for (const concept of glossary.concepts) {
      const named = wordIn(concept.en);
      const term = wordIn(concept.sw);
      for (const [where, { en: english, sw: swahili }] of pairs) {
        if (named.test(withoutPlaceholders(english)) && !term.test(withoutGlosses(swahili))) broken.push(`${where}: "${english}" → "${swahili}" lacks ${concept.sw.join(' / ')} (${concept.concept})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('leaves out the words it retires, in both languages', () => {
    const found: string[] = [];
    for (const language of ['en', 'sw'] as const) {
      const retired = wordIn(glossary.avoid[language]);
      // Phrases the retired words may stand in (the facility, the product's name), as written.
      const allowed = (language === 'sw' ? glossary.avoidExcept.sw : []).map((phrase) => new RegExp(escape(phrase), 'gu'));
      for (const [where, texts] of pairs) {
        const text = allowed.reduce((rest, phrase) => rest.replace(phrase, ' '), language === 'sw' ? withoutGlosses(texts.sw) : texts.en);
        const match = retired.exec(text);
        if (match !== null) found.push(`${where} (${language}): "${match[0]}" in "${texts[language]}"`);
      }
    }
    expect(found).toEqual([]);
  });

  it('catches a Swahili text that strays from a term, and a retired word', () => {
    const consent = glossary.concepts.find((c) => c.en.includes('consent'))!;
    expect(wordIn(consent.en).test('Patient consent for the visit') && !wordIn(consent.sw).test('Idhini ya mgonjwa kwa ziara')).toBe(true);
    // A form inside another word is not the term: "allowed" is not "discharged".
    const discharge = glossary.concepts.find((c) => c.en.includes('discharge'))!;
    expect(wordIn(discharge.sw).test('Msimbo wa SMS unaruhusiwa')).toBe(false);
    expect(wordIn(discharge.sw).test('Mgonjwa ameruhusiwa kutoka')).toBe(true);
    // An English gloss in brackets is allowed; the same word bare is not.
    expect(wordIn(glossary.avoid.sw).test(withoutGlosses('Msimbo wa SMS (OTP)'))).toBe(false);
    expect(wordIn(glossary.avoid.sw).test(withoutGlosses('Andika OTP'))).toBe(true);
    expect(wordIn(glossary.avoid.sw).test('Ameongeza mhudumu')).toBe(true);
    expect(wordIn(glossary.avoid.sw).test('Kituo kimefungwa')).toBe(true);
    expect(wordIn(glossary.avoid.sw).test('Kisomaji kiko tayari')).toBe(false);
    expect(wordIn(glossary.avoid.sw).test('idhini ya mgonjwa')).toBe(true);
  });
});
