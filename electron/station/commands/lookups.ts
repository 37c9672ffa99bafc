// terminology.*, professionals.*: what the nurse picks instead of typing. Diagnoses and generic
// medicines come from the exchange's terminology search (in the owner and source the administrator
// set for each), this station's recent codes first; a doctor is looked up in the
// professionals registry (by number: the registry has no name search) and remembered, so a later
// search by name finds the doctors this station has found before.
import type { ZodType } from 'zod';
import type { ConceptSource, LicenceState, ProfessionalCard } from '../../contract';
import { diagnosisChoice, medicineChoice, professionalCard } from '../../contract';
import { isExchangeError, readConcepts, type Professional } from '../../payer';
import { registryRegulators } from '../../vocabulary';
import { fail } from '../errors';
import type { Ctx } from '../workflows/context';
import { wireIdentificationType } from '../workflows/practitioner';
import type { AttendingDoctor } from '../workflows/types';
import { defineCommands, type StationServices } from './services';

/** Recent codes offered with nothing typed; the exchange is asked for this many at most. */
const RECENT_SHOWN = 10;
const SEARCH_LIMIT = 20;
const MAX_CHOICES = 40;
/** Doctors remembered for the search by name, newest first. */
const REMEMBERED_DOCTORS = 50;
const DOCTORS_MEMO = 'professionalsFound';

interface Used {
  readonly code: string;
  readonly title: string | null;
}

/** Each code once, newest first; a title found later fills one the newer use lacked. */
function usedOnce(used: Iterable<Used>): Used[] {
  const seen = new Map<string, Used>();
  for (const u of used) {
    const known = seen.get(u.code);
    if (known === undefined) seen.set(u.code, u);
    else if (known.title === null && u.title !== null) seen.set(u.code, { code: u.code, title: u.title });
  }
  return [...seen.values()];
}

const newestWorkflowsFirst = (c: Ctx) => [...c.engine.all()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));

/** The diagnoses on this station's visits and preauths, newest workflow first. */
function* diagnosesUsed(c: Ctx): Generator<Used> {
  for (const wf of newestWorkflowsFirst(c)) {
    const diagnoses =
      wf.kind === 'visit' ? wf.data.lines.flatMap((line) => line.diagnoses) : wf.kind === 'elective' ? (wf.data.preauthRequest?.diagnoses ?? []) : [];
    for (const d of diagnoses) yield { code: d.code.toUpperCase(), title: d.name ?? null };
  }
}

/** The medicines prescribed on this station's visits, newest visit and newest prescription first. */
function* medicinesUsed(c: Ctx): Generator<Used> {
  for (const wf of newestWorkflowsFirst(c)) {
    if (wf.kind !== 'visit') continue;
    for (const rx of [...(wf.data.prescriptions ?? [])].reverse()) {
      for (const item of rx.items) yield { code: item.conceptCode, title: item.conceptName };
    }
  }
}

const matches = (text: string) => (d: Used) => {
  const needle = text.toLowerCase();
  return d.code.toLowerCase().includes(needle) || (d.title?.toLowerCase().includes(needle) ?? false);
};

/** A choice the contract accepts: the exchange's titles are cut to the contract's length, odd codes left out. */
function choiceOf<T>(schema: ZodType<T>) {
  return (code: string, title: string | null, recent: boolean): T | null => {
    const parsed = schema.safeParse({ code, title: title === null || title.trim() === '' ? null : title.trim().slice(0, 200), recent });
    return parsed.success ? parsed.data : null;
  };
}

interface ConceptKind<T> {
  readonly used: Used[];
  /** The owner and source the administrator set for this kind; null sends neither. */
  readonly where: ConceptSource | null;
  /** How the kind's codes compare: ICD-11 codes in capitals, a medicine's as the terminology writes it. */
  readonly normalize: (code: string) => string;
  readonly choice: (code: string, title: string | null, recent: boolean) => T | null;
}

/** The recent codes that match first, then the terminology's; fewer than two letters: the recent ones, nothing asked. */
async function searchConcepts<T>(c: Ctx, typed: string, kind: ConceptKind<T>): Promise<{ items: T[]; searched: boolean }> {
  const text = typed.trim();
  if (text.length < 2) return { items: kind.used.slice(0, RECENT_SHOWN).flatMap((d) => kind.choice(d.code, d.title, true) ?? []), searched: false };
  const recentCodes = new Set(kind.used.map((d) => d.code));
  const answer = await c.session.client().lookups.searchConcepts({ search: text, limit: SEARCH_LIMIT, ...(kind.where ?? {}) });
  const found = readConcepts(answer).map((concept) => ({ code: kind.normalize(concept.code), title: concept.display ?? null }));
  const titles = new Map(found.map((d) => [d.code, d.title]));
  const items: T[] = [];
  const listed = new Set<string>();
  for (const d of [...kind.used.filter(matches(text)), ...found]) {
    if (listed.has(d.code)) continue;
    listed.add(d.code);
    const made = kind.choice(d.code, d.title ?? titles.get(d.code) ?? null, recentCodes.has(d.code));
    if (made !== null) items.push(made);
  }
  return { items: items.slice(0, MAX_CHOICES), searched: true };
}

const diagnosisOf = choiceOf(diagnosisChoice);
const medicineOf = choiceOf(medicineChoice);

async function searchDiagnoses(c: Ctx, typed: string) {
  const where = c.settings.values.terminology.diagnoses;
  return searchConcepts(c, typed, { used: usedOnce(diagnosesUsed(c)), where, normalize: (code) => code.toUpperCase(), choice: diagnosisOf });
}

/** Only in the medicines the administrator named: a search with neither owner nor source could answer diagnoses. */
async function searchMedicines(c: Ctx, typed: string) {
  const where = c.settings.values.terminology.medicines;
  if (where === null) return { configured: false, items: [], searched: false };
  const found = await searchConcepts(c, typed, { used: usedOnce(medicinesUsed(c)), where, normalize: (code) => code, choice: medicineOf });
  return { configured: true, ...found };
}

/** The licence as the registry states it: withdrawn or inactive first, then a last licence that has ended. */
export function licenceOf(p: Professional, nowMs: number): { state: LicenceState; ends: string | null } {
  const ends = p.licences
    .map((l) => l.end)
    .filter((end): end is string => end !== undefined && !Number.isNaN(Date.parse(end)))
    .sort((a, b) => Date.parse(b) - Date.parse(a))[0];
  const endOfDay = ends === undefined ? undefined : Date.parse(ends) + (/^\d{4}-\d{2}-\d{2}$/.test(ends) ? 86_400_000 : 0);
  const status = p.status?.trim().toUpperCase();
  let state: LicenceState;
  if (p.active === false || (status !== undefined && status !== 'ACTIVE')) state = 'inactive';
  else if (endOfDay !== undefined && endOfDay <= nowMs) state = 'expired';
  else if (p.active === true || status === 'ACTIVE') state = 'active';
  else state = 'unknown';
  return { state, ends: ends ?? null };
}

function cardOf(doctor: AttendingDoctor, p: Professional, nowMs: number): ProfessionalCard {
  const licence = licenceOf(p, nowMs);
  const cut = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim().slice(0, 200));
  return { doctor, name: cut(p.fullName), cadre: cut(p.cadre), specialty: cut(p.specialty), licence: licence.state, licenceEnds: cut(licence.ends ?? undefined) };
}

/** UAT's "no such professional" is a 400 with this sentence (R); the sandbox's a 422 PROFESSIONAL_NOT_FOUND. */
const notInRegistry = /no practitioner membership|failed to fetch practitioner/i;

async function findProfessional(c: Ctx, doctor: AttendingDoctor): Promise<ProfessionalCard> {
  const regulator = doctor.regulationBody.toUpperCase();
  if (!(registryRegulators as readonly string[]).includes(regulator)) {
    fail('VALIDATION', `The professionals registry knows the regulators ${registryRegulators.join(', ')}.`, { field: 'doctor.regulationBody' });
  }
  const identificationType = wireIdentificationType(doctor.identificationType) ?? doctor.identificationType.trim();
  let found: Professional;
  try {
    found = await c.session.client().lookups.searchProfessionals({ identification_number: doctor.identificationNumber, identification_type: identificationType, regulator });
  } catch (error) {
    if (isExchangeError(error) && error.kind === 'validation' && notInRegistry.test(error.message)) {
      fail('DOCTOR_NOT_FOUND', 'The doctor is not in the professionals registry.', { field: 'doctor.identificationNumber' });
    }
    throw error;
  }
  return cardOf({ ...doctor, regulationBody: regulator }, found, c.clock.now());
}

/** The doctors this station has found, newest first (a memo: a doctor's registry entry is public, no patient's). */
function rememberedDoctors(c: Ctx): ProfessionalCard[] {
  const stored = c.settings.memo(DOCTORS_MEMO);
  if (stored === undefined) return [];
  try {
    const list = JSON.parse(stored) as unknown;
    return Array.isArray(list) ? list.flatMap((entry) => { const parsed = professionalCard.safeParse(entry); return parsed.success ? [parsed.data] : []; }) : [];
  } catch {
    return [];
  }
}

const sameDoctor = (a: AttendingDoctor, b: AttendingDoctor) =>
  a.identificationNumber.toUpperCase() === b.identificationNumber.toUpperCase() && a.regulationBody.toUpperCase() === b.regulationBody.toUpperCase();

function remember(c: Ctx, card: ProfessionalCard): void {
  const list = [card, ...rememberedDoctors(c).filter((known) => !sameDoctor(known.doctor, card.doctor))].slice(0, REMEMBERED_DOCTORS);
  c.settings.remember(DOCTORS_MEMO, JSON.stringify(list));
}

export const lookupCommands = (s: StationServices) =>
  defineCommands({
    'terminology.searchDiagnoses': async (input) => searchDiagnoses(s.ctx, input.text),
    'terminology.searchMedicines': async (input) => searchMedicines(s.ctx, input.text),
    'professionals.find': async (input) => {
      const c = s.ctx;
      const card = await findProfessional(c, input.doctor);
      remember(c, card);
      c.engine.audit({ action: 'professionals.find', outcome: 'succeeded', summary: `${card.doctor.regulationBody} professional found (${card.licence} licence)` });
      return { professional: card };
    },
    'professionals.searchByName': async (input) => {
      const words = input.name.toLowerCase().split(/\s+/).filter((w) => w !== '');
      const items = rememberedDoctors(s.ctx).filter((card) => {
        const name = card.name?.toLowerCase() ?? '';
        return words.every((word) => name.includes(word));
      });
      return { items: items.slice(0, 20) };
    },
  });
