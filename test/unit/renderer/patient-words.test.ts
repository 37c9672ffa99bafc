// The words the nurse reads to the patient (consent.script.*, put together by
// renderer/features/consent/PatientScript.tsx): in both languages, for every purpose a verification
// can have, they say what the code or the finger is for and who pays; a code is said to be safe to
// read to the nurse; and the Kiswahili uses the words a patient with little schooling follows
// ("namba za siri (code)"), not the station's terms (msimbo, uthibitisho), which the nurse's own
// screens use.
import { describe, expect, it } from 'vitest';
import { verificationStep } from '../../../electron/contract/workflows';
import { catalogue, flatten } from '../../support/catalogues';

const languages = { en: flatten(catalogue('en')), sw: flatten(catalogue('sw')) } as const;
/** Every purpose PatientScript is given: the contract's, and an outpatient's discharge as the end of the visit. */
const purposes = [...verificationStep.shape.purpose.options, 'visit-end'] as const;
/** What PatientScript says before and after the purpose, by what the patient is about to do. */
const scripts = {
  code: ['consent.script.code', 'consent.script.readCode'],
  fallback: ['consent.script.fallback', 'consent.script.readCode'],
  finger: ['consent.script.finger', 'consent.script.fingerChecked'],
} as const;

const read = (language: keyof typeof languages, key: string): string => {
  const text = languages[language].get(key);
  if (text === undefined || text.trim() === '') throw new Error(`${language} ${key} is missing`);
  return text;
};

describe('the words read to the patient', () => {
  it('say, for every purpose in both languages, what the patient agrees to and that SHA pays', () => {
    for (const language of ['en', 'sw'] as const) {
      const sentences = purposes.map((purpose) => read(language, `consent.script.purpose.${purpose}`));
      for (const [index, sentence] of sentences.entries()) {
        expect(sentence, `${language} ${purposes[index]}`).toMatch(language === 'en' ? /^It is for \w+ing that/ : /^Ni kwa ajili ya ku\w+/);
        expect(sentence, `${language} ${purposes[index]}`).toMatch(/\bSHA\b/);
      }
      // Each purpose its own words: a patient leaving the ward is not told they are being admitted.
      expect(new Set(sentences).size, language).toBe(purposes.length);
    }
  });

  it('tell the patient a code is safe to read to the nurse and to no one else, in both languages', () => {
    expect(read('en', 'consent.script.readCode')).toMatch(/safe to read it to me; do not give it to anyone else/);
    expect(read('sw', 'consent.script.readCode')).toMatch(/Ni salama kunisomea mimi; usimpe mtu mwingine/);
    for (const key of ['consent.script.code', 'consent.script.fallback']) {
      expect(read('en', key)).toMatch(/secret code/);
      expect(read('sw', key)).toContain('namba za siri (code)');
    }
    expect(read('en', 'consent.script.fingerChecked')).toMatch(/fingerprint to know it is you/);
    expect(read('sw', 'consent.script.fingerChecked')).toMatch(/alama ya kidole chako ili ijue ni wewe/);
  });

  it('speak Kiswahili a patient follows: no station terms, no English but the word "code" beside its Kiswahili', () => {
    const stationTerms = /msimbo|misimbo|thibitish|uthibitisho|OTP|kisomaji cha alama|ridhaa/i;
    const heard: string[] = [];
    for (const [about, [opening, closing]] of Object.entries(scripts)) {
      for (const purpose of purposes) {
        const words = `${read('sw', opening)} ${read('sw', `consent.script.purpose.${purpose}`)} ${read('sw', closing)}`;
        heard.push(`${about} ${purpose}: ${words}`);
        expect(words, `${about} ${purpose}`).not.toMatch(stationTerms);
        expect(words.replace('(code)', ''), `${about} ${purpose}`).not.toMatch(/\b(?:code|the|your|phone)\b/i);
      }
    }
    expect(heard).toHaveLength(Object.keys(scripts).length * purposes.length);
  });
});
