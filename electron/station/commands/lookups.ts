// terminology.*, professionals.*: what the nurse picks instead of typing. Diagnoses come from the
// exchange's terminology search, this station's recent codes first; a doctor is looked up in the
// professionals registry (by number: the registry has no name search) and remembered, so a later
// search by name finds the doctors this station has found before.
import type { DiagnosisChoice, LicenceState, ProfessionalCard } from '../../contract';
import { diagnosisChoice, professionalCard } from '../../contract';
import { isExchangeError, readConcepts, registryRegulators, type Professional } from '../../payer';
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

/** The diagnoses on this station's visits and preauths, newest workflow first, each code once. */
function recentDiagnoses(c: Ctx): Used[] {
  const seen = new Map<string, Used>();
  const workflows = [...c.engine.all()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  for (const wf of workflows) {
    const diagnoses =
      wf.kind === 'visit' ? wf.data.lines.flatMap((line) => line.diagnoses) : wf.kind === 'elective' ? (wf.data.preauthRequest?.diagnoses ?? []) : [];
    for (const d of diagnoses) {
      const code = d.code.toUpperCase();
      const known = seen.get(code);
      if (known === undefined) seen.set(code, { code, title: d.name ?? null });
      else if (known.title === null && d.name !== undefined) seen.set(code, { code, title: d.name });
    }
  }
  return [...seen.values()];
}

const matches = (text: string) => (d: Used) => {
  const needle = text.toLowerCase();
  return d.code.toLowerCase().includes(needle) || (d.title?.toLowerCase().includes(needle) ?? false);
};

/** A choice the contract accepts: the exchange's titles are cut to the contract's length, odd codes left out. */
function choice(code: string, title: string | null, recent: boolean): DiagnosisChoice | null {
  const parsed = diagnosisChoice.safeParse({ code, title: title === null || title.trim() === '' ? null : title.trim().slice(0, 200), recent });
  return parsed.success ? parsed.data : null;
}

async function searchDiagnoses(c: Ctx, typed: string) {
  const text = typed.trim();
  const recent = recentDiagnoses(c);
  if (text.length < 2) {
    const items = recent.slice(0, RECENT_SHOWN).flatMap((d) => choice(d.code, d.title, true) ?? []);
    return { items, searched: false };
  }
  const recentMatching = recent.filter(matches(text));
  const recentCodes = new Set(recent.map((d) => d.code));
  const answer = await c.session.client().lookups.searchConcepts({ search: text, limit: SEARCH_LIMIT });
  const found = readConcepts(answer).map((concept) => ({ code: concept.code.toUpperCase(), title: concept.display ?? null }));
  const titles = new Map(found.map((d) => [d.code, d.title]));
  const items: DiagnosisChoice[] = [];
  const listed = new Set<string>();
  for (const d of [...recentMatching, ...found]) {
    if (listed.has(d.code)) continue;
    listed.add(d.code);
    const made = choice(d.code, d.title ?? titles.get(d.code) ?? null, recentCodes.has(d.code));
    if (made !== null) items.push(made);
  }
  return { items: items.slice(0, MAX_CHOICES), searched: true };
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
    'terminology.searchDiagnoses': async (input) => searchDiagnoses(s.ctx(), input.text),
    'professionals.find': async (input) => {
      const c = s.ctx();
      const card = await findProfessional(c, input.doctor);
      remember(c, card);
      c.engine.audit({ action: 'professionals.find', outcome: 'succeeded', summary: `${card.doctor.regulationBody} professional found (${card.licence} licence)` });
      return { professional: card };
    },
    'professionals.searchByName': async (input) => {
      const words = input.name.toLowerCase().split(/\s+/).filter((w) => w !== '');
      const items = rememberedDoctors(s.ctx()).filter((card) => {
        const name = card.name?.toLowerCase() ?? '';
        return words.every((word) => name.includes(word));
      });
      return { items: items.slice(0, 20) };
    },
  });
