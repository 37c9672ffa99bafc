// Every string the nurse reads is in both languages, written in Swahili rather than copied from
// English, with the same placeholders; every key the screens use exists; and every value the
// contract can send that the screens put into words (error codes, states, reasons) has its words.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machines } from '../../../electron/station/machines';
import { journal } from '../../../electron/station/workflows/journal';
import {
  claimStatus,
  deadline,
  consentState,
  dischargeReason,
  dischargeState,
  electiveState,
  emergencyState,
  errorCodes,
  hardwareServiceState,
  idType,
  localDeviceServiceState,
  preauthStatus,
  readerState,
  routeDecision,
  routeReason,
  scenario,
  verificationStep,
  visitState,
  whitelistReasonType,
  workAnswer,
  workflowKind,
  patientIdentity,
  stationStatus,
} from '../../../electron/contract';
import { mergeCatalogues } from '../../../renderer/i18n/catalogue';
import { catalogue, catalogueParts, flatten } from '../../support/catalogues';

const english = flatten(catalogue('en'));
const swahili = flatten(catalogue('sw'));

/**
 * Keys whose Swahili may equal the English: names and codes, which are not translated.
 */
const sameInBothLanguages = new Set([
  'app.name', // "Idhini" is the product's name (and already Swahili)
  'elective.progress.payer', // "SHA", the payer's name
]);

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** A key as used with t(): plural keys are stored as key_one / key_other. */
function has(key: string): boolean {
  return english.has(key) || (english.has(`${key}_one`) && english.has(`${key}_other`));
}

describe('renderer translations', () => {
  it('keeps each namespace in one folder, the same folder in both languages', () => {
    const parts = { en: catalogueParts('en'), sw: catalogueParts('sw') };
    const folders = (language: 'en' | 'sw') => Object.keys(parts[language]).map((where) => where.replace(/\/(en|sw)\.json$/, ''));
    expect(folders('sw')).toEqual(folders('en'));
    expect(folders('en')).toContain('features/claims');
    for (const where of Object.keys(parts.en)) {
      expect(Object.keys(parts.sw[where.replace(/en\.json$/, 'sw.json')] ?? {}), where).toEqual(Object.keys(parts.en[where] ?? {}));
    }
    expect(() => mergeCatalogues({ 'features/a/en.json': { claims: { title: 'A' } }, 'features/b/en.json': { claims: { more: 'B' } } })).toThrow(
      /"claims" is in both features\/a\/en.json and features\/b\/en.json/,
    );
  });

  it('has every key in both languages', () => {
    expect([...english.keys()].filter((key) => !swahili.has(key))).toEqual([]);
    expect([...swahili.keys()].filter((key) => !english.has(key))).toEqual([]);
  });

  it('writes Swahili rather than copying English, except names and codes', () => {
    const copied = [...english].filter(([key, text]) => swahili.get(key) === text && !sameInBothLanguages.has(key)).map(([key]) => key);
    expect(copied).toEqual([]);
    // The allowlist stays honest: each entry is still the same in both.
    for (const key of sameInBothLanguages) expect(swahili.get(key)).toBe(english.get(key));
  });

  it('keeps the same placeholders in both languages', () => {
    const mismatched = [...english].filter(([key, text]) => placeholders(text).join() !== placeholders(swahili.get(key) ?? '').join()).map(([key]) => key);
    expect(mismatched).toEqual([]);
  });

  it('has no empty strings', () => {
    expect([...english, ...swahili].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
  });

  it('defines every literal key the renderer source uses', () => {
    const root = join(import.meta.dirname, '../../../renderer');
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
    })(root);
    const used = new Set<string>();
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g)) used.add(match[1] as string);
      for (const match of source.matchAll(/key: '([a-z]+\.[\w.-]+)'/g)) used.add(match[1] as string);
    }
    expect(used.size).toBeGreaterThan(300);
    expect([...used].filter((key) => !has(key))).toEqual([]);
  });

  it('puts into words everything the contract can send that the screens show', () => {
    const states = { consent: consentState, visit: visitState, discharge: dischargeState, elective: electiveState, emergency: emergencyState };
    const needed = [
      ...errorCodes.flatMap((code) => [`errors.${code}.title`, `errors.${code}.action`]),
      ...claimStatus.options.map((s) => `claimStatus.${s}`),
      ...preauthStatus.options.map((s) => `preauthStatus.${s}`),
      ...scenario.options.flatMap((s) => [`scenario.${s}.name`, `scenario.${s}.means`]),
      ...routeReason.options.map((r) => `consent.reason.${r}`),
      ...routeDecision.shape.route.options.map((r) => `consent.route.${r}`),
      ...verificationStep.shape.purpose.options.map((p) => `verification.purpose.${p}`),
      ...whitelistReasonType.options.map((r) => `whitelist.reason.${r}`),
      ...dischargeReason.options.map((r) => `discharge.reasons.${r}`),
      ...idType.options.map((type) => `idTypes.${type}`),
      ...workflowKind.options.map((k) => `work.kind.${k}`),
      ...Object.entries(states).flatMap(([kind, state]) => state.options.map((s) => `state.${kind}.${s}`)),
      ...readerState.shape.state.options.map((s) => `readers.state.${s}`),
      ...hardwareServiceState.shape.state.options.map((s) => `readers.service.${s}`),
      ...localDeviceServiceState.shape.state.options.map((s) => `readers.local.${s}`),
      ...deadline.shape.kind.options.map((k) => `work.deadline.${k}`),
      ...workAnswer.shape.about.options.flatMap((about) =>
        workAnswer.shape.by.options.flatMap((by) => workAnswer.shape.outcome.options.map((outcome) => `work.answer.${about}.${by}.${outcome}`)),
      ),
      ...patientIdentity.shape.sex.unwrap().options.map((sex) => `identity.sex.${sex}`),
      ...stationStatus.shape.setAside.shape.records.element.shape.source.options.map((source) => `settings.setAside.source.${source}`),
      ...stationStatus.shape.setAside.shape.records.element.shape.reason.options.map((reason) => `settings.setAside.reason.${reason}`),
    ];
    expect(needed.filter((key) => !has(key))).toEqual([]);
  });

  it('puts into words everything the station records, for the activity screen', () => {
    // Every workflow's creation and every transition of its machine (the engine audits `<kind>.<event>`).
    const events = Object.entries(machines).flatMap(([kind, table]) => [
      `activity.created.${kind}`,
      ...[...new Set(Object.values(table).flatMap((row) => Object.keys(row)))].map((event) => `activity.event.${kind}.${event}`),
    ]);
    // Every exchange call the core journals (`exchange.<operation>`): each is declared once in its journal table.
    const operations = new Set(Object.values(journal).map((entry) => entry.name));
    expect(operations.size).toBeGreaterThan(15);
    const words = [...operations].map((op) => `activity.operation.${op.replace('.', '_')}`);
    expect([...events, ...words].filter((key) => !has(key))).toEqual([]);
  });
});
