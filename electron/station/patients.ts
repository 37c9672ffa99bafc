// Finding the patient and what they are covered for, with as few round trips as the data allows.
// The registry look-up and the eligibility check go out together (both need only the ID number);
// the nurse sees "Covered" the moment eligibility is in. Then, together: the contacts, the
// sub-benefits, and the interventions of the ward's usual sub-benefit (remembered: its code needs
// no list), which is what consent needs — the phones and the suggested service. The exchange lists
// interventions one sub-benefit at a time (`sub_benefit_code` is required, 1–4 s each on the live
// service) and a member can have ~30 sub-benefits and ~850 interventions: the rest come in the
// background, the ward's most-used sub-benefits first, at most LIST_CONCURRENCY at a time so the
// nurse's own calls (the code, the visit) always find a free connection. They are cached per
// look-up and paged and searched here.
import type { z } from 'zod';
import type { Logger } from 'pino';
import type {
  intervention as interventionSchema,
  PatientIdentity,
  patientSummary,
  recentPatient,
  scheme as schemeSchema,
  subBenefit as subBenefitSchema,
  utilization as utilizationSchema,
} from '../contract';
import { isExchangeError, type Eligibility, type Intervention as WireIntervention, type Page, type SubBenefit as WireSubBenefit, type Utilization as WireUtilization } from '../payer';
import type { Clock } from './deps';
import type { Db } from './db';
import { fail } from './errors';
import type { Scrubber } from './logging';
import { maskContact, maskIdNumber, maskName } from './masking';
import { decideRoute } from './route';
import type { Sealer } from './sealing';
import type { ExchangeSession } from './session';
import type { SettingsStore } from './settings';
import type { InterventionBrief, PatientFacts, ServiceType, SmsContact } from './workflows/types';

export type PatientSummary = z.infer<typeof patientSummary>;
export type ContractIntervention = z.infer<typeof interventionSchema>;
type Scheme = z.infer<typeof schemeSchema>;
type SubBenefit = z.infer<typeof subBenefitSchema>;
type IdType = PatientSummary['idType'];

interface StoredPatient {
  ref: string;
  lookedUpAt: string;
  idType: IdType;
  /** secret */
  idNumber: string;
  /** secret: the client registry id. */
  patientId: string;
  /** secret: kept only to teach the scrubber after a restart. */
  fullName: string | null;
  maskedName: string;
  ageYears: number | null;
  /** secret: the sex and date of birth eligibility gave, for the nurse's check of the patient in hand; absent in patients stored before. */
  sex?: PatientIdentity['sex'];
  dateOfBirth?: string | null;
  covered: boolean;
  message: string | null;
  reason: string | null;
  possibleSolution: string | null;
  schemes: Scheme[];
  /**
   * secret: what POST /authorizations/covers names for each scheme (the principal's CR number and
   * the policy). Absent in patients stored before the covers call took a consent token.
   */
  coverKeys?: CoverKey[];
  chosenSchemeId: string | null;
  memberType: string | null;
  coverageStart: string | null;
  coverageEnd: string | null;
  whitelisted: boolean;
  biometricsEnforced: boolean | undefined;
  contractedFunds: string[] | null;
  contacts: SmsContact[];
  serviceType: ServiceType;
  suggested: InterventionBrief | null;
  /** End of the SMS window after BIOMETRICS_NOT_FOUND_OTP_ALLOWED (ms), shared by this patient's workflows. */
  unusableUntil: number | null;
  /** The contacts and the suggestion are in (covered patients); absent in patients stored before it was kept: true. */
  detailsLoaded?: boolean;
}

/** The cover a member under two schemes chose, as the covers call names it. */
export interface CoverKey {
  readonly schemeId: string;
  readonly principalCrId: string | null;
  readonly policyNumber: string | null;
}

interface Entry extends StoredPatient {
  subBenefits: WireSubBenefit[] | null;
  loading: Promise<void> | null;
  /** Each sub-benefit's interventions, by its code: loaded, on the way or waiting its turn (a failed load is forgotten). */
  lists: Map<string, Queued<ContractIntervention[]>>;
  /** The lists that have arrived. */
  listed: Map<string, ContractIntervention[]>;
  /** The contacts and the suggestion, on their way; null when in, or after a failure (asked again on demand). */
  details: Promise<void> | null;
  /** Later look-ups' lists go first. */
  generation: number;
}

/**
 * How a list is asked for: `now`, the nurse waits for it (started at once); `soon`, what the
 * suggestion may need; `background`, the rest. The last two wait their turn, LIST_CONCURRENCY at a
 * time across the station, newest look-up first.
 */
type Lane = 'now' | 'soon' | 'background';
const laneRank: Record<Lane, number> = { now: 0, soon: 1, background: 2 };

/**
 * Lists fetched at a time in their turn, all patients together. The exchange client holds eight
 * connections; with three for the lists, the lists the nurse waits for (`now`, not counted here),
 * the utilization and the previous patient's stragglers, the nurse's own calls (the next look-up,
 * the code, the visit, the fingerprint look-up) still find a free one instead of queuing behind the
 * services list (measured with the ward profile: at four, a look-up's eligibility call waited
 * hundreds of milliseconds for a connection).
 */
const LIST_CONCURRENCY = 3;
/** The ward's most-used sub-benefits asked for beside the usual one. */
const MOST_USED = 2;

interface Queued<T> {
  readonly promise: Promise<T>;
  /** Moves a list still waiting to a more urgent lane (`now` starts it). */
  raise(lane: Lane): void;
}

interface Waiting {
  lane: Lane;
  readonly generation: number;
  readonly seq: number;
  readonly start: () => void;
}

/** The station's list fetches, in lanes: `now` at once, the others LIST_CONCURRENCY at a time beside them. */
class ListQueue {
  private running = 0;
  private serial = 0;
  private readonly waiting: Waiting[] = [];

  enqueue<T>(lane: Lane, generation: number, task: () => Promise<T>): Queued<T> {
    let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
    const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    let started = false;
    const item: Waiting = {
      lane,
      generation,
      seq: ++this.serial,
      start: () => {
        started = true;
        const counted = item.lane !== 'now';
        if (counted) this.running += 1;
        task()
          .then(settle.resolve, settle.reject)
          .finally(() => {
            if (counted) this.running -= 1;
            this.pump();
          });
      },
    };
    if (lane === 'now') item.start();
    else {
      this.waiting.push(item);
      this.pump();
    }
    return {
      promise,
      raise: (to) => {
        if (started || laneRank[to] >= laneRank[item.lane]) return;
        if (to !== 'now') {
          item.lane = to;
          return;
        }
        this.waiting.splice(this.waiting.indexOf(item), 1);
        item.lane = 'now';
        item.start();
      },
    };
  }

  private pump(): void {
    while (this.running < LIST_CONCURRENCY && this.waiting.length > 0) {
      this.waiting.sort((a, b) => laneRank[a.lane] - laneRank[b.lane] || b.generation - a.generation || a.seq - b.seq);
      this.waiting.shift()!.start();
    }
  }
}

const PAGE = 100;
const SHIFT_MS = 12 * 60 * 60 * 1000;
/** Look-ups are kept a day, then deleted (the recent list shows a shift's). */
const KEEP_MS = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------- interventions as the nurse sees them

function scenarioOf(s: WireIntervention['scenario']): ContractIntervention['scenario'] {
  return s === 'emergency' || s === 'elective-preauth' || s === 'capitation' || s === 'per-diem' ? s : 'other';
}

function careSettingOf(accessPoint: string | undefined): ContractIntervention['careSetting'] {
  if (accessPoint === 'IP') return 'inpatient';
  if (accessPoint === 'OP') return 'outpatient';
  return 'both';
}

function mechanismOf(m: string | undefined): ContractIntervention['paymentMechanism'] {
  if (m === 'FIXED_FEE_FOR_SERVICE') return 'FEE_FOR_SERVICE';
  if (m === 'FEE_FOR_SERVICE' || m === 'CAPITATION' || m === 'PER_DIEM' || m === 'CASE_BASED') return m;
  return 'OTHER';
}

const text = (value: string | undefined, max: number): string | null => {
  const v = value?.trim();
  return v === undefined || v === '' ? null : v.slice(0, max);
};

/** An intervention as the contract shows it; `subBenefitCode` is the sub-benefit it was listed under. */
export function toContractIntervention(i: WireIntervention, subBenefitCode: string | null): ContractIntervention {
  const scenario = scenarioOf(i.scenario);
  const careSetting = careSettingOf(i.accessPoint);
  const serviceType: ServiceType = careSetting === 'inpatient' ? 'INPATIENT' : 'OUTPATIENT';
  const startsWith = scenario === 'emergency' ? 'emergency' : scenario === 'elective-preauth' ? 'elective' : 'visit';
  const tariff = i.tariff ?? i.kephLevelTariff ?? i.applicableTariff;
  return {
    code: i.code,
    name: text(i.name, 200) ?? i.code,
    subBenefitCode: text(subBenefitCode ?? undefined, 60),
    fund: text(i.fund, 60),
    careSetting,
    paymentMechanism: mechanismOf(i.paymentMechanism),
    scenario,
    handling: {
      startsWith,
      serviceType,
      needsPreauth: i.needsPreauth,
      needsDoctor: i.needsDoctorAuthorization || scenario === 'emergency',
      billing: scenario === 'per-diem' || scenario === 'emergency' ? 'automatic' : 'manual',
      closeBy: serviceType === 'INPATIENT' && startsWith !== 'emergency' ? 'discharge' : 'submit',
    },
    tariffKes: tariff === undefined || tariff < 0 ? null : Math.min(tariff, 1_000_000_000),
    protocolCode: text(i.protocolCode, 60),
    requiredDocuments: [...i.applicableDocumentTypes, ...i.requiredPreauthDocumentTypes].map((d) => d.slice(0, 100)).slice(0, 30),
    preauthDocuments: i.requiredPreauthDocumentTypes.map((d) => d.slice(0, 100)).slice(0, 30),
  };
}

export function briefOf(i: ContractIntervention): InterventionBrief {
  return { code: i.code, name: i.name, scenario: i.scenario };
}

/** Whether an intervention can be used for an ordinary visit of this service type. */
function fitsVisit(i: ContractIntervention, serviceType: ServiceType): boolean {
  if (i.handling.startsWith !== 'visit' || i.handling.needsPreauth) return false;
  return i.careSetting === 'both' || (serviceType === 'INPATIENT' ? i.careSetting === 'inpatient' : i.careSetting === 'outpatient');
}

/**
 * The intervention that fits the ward: an ordinary visit of the ward's service type, of a fund the
 * facility is contracted for, billed the way that ward bills (capitation outpatient, per diem
 * inpatient). The ward's usual one (the last this station opened a visit for) wins when it fits;
 * otherwise the first, in the exchange's order, of the first sub-benefit that has any — the
 * exchange lists a sub-benefit's plain, canonical intervention first.
 */
export function suggestIntervention(
  interventions: readonly ContractIntervention[],
  serviceType: ServiceType,
  contractedFunds: readonly string[] | null,
  usual: string | undefined,
): ContractIntervention | null {
  const preferred = serviceType === 'INPATIENT' ? 'per-diem' : 'capitation';
  const candidates = interventions.filter(
    (i) => fitsVisit(i, serviceType) && i.scenario === preferred && (contractedFunds === null || i.fund === null || contractedFunds.includes(i.fund.toUpperCase())),
  );
  return candidates.find((i) => i.code === usual) ?? candidates[0] ?? null;
}

// ---------------------------------------------------------------- the directory

export interface LookUpInput {
  idType: IdType;
  idNumber: string;
  serviceType?: ServiceType | undefined;
  /** `eligibility`: answer the moment eligibility is in; `details` (default): once consent has what it needs. */
  answerAt?: 'eligibility' | 'details' | undefined;
}

/** The ward's usual intervention and the sub-benefit it was listed under, as remembered. */
interface Usual {
  readonly code: string | undefined;
  readonly subBenefitCode: string | undefined;
}

const ignore = () => undefined;

export class PatientDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly lists = new ListQueue();
  private lookUps = 0;
  // Prepared once: every look-up finds the patient's ref and stores the patient.
  private readonly selectRef;
  private readonly insertRef;
  private readonly upsertPatient;

  constructor(
    private readonly o: {
      db: Db;
      sealer: Sealer;
      session: ExchangeSession;
      settings: SettingsStore;
      clock: Clock;
      log: Logger;
      scrubber: Scrubber;
      newRef: () => string;
    },
  ) {
    this.selectRef = o.db.prepare('SELECT ref FROM patient_refs WHERE key = ?');
    this.insertRef = o.db.prepare('INSERT INTO patient_refs (key, ref, created_at) VALUES (?, ?, ?)');
    this.upsertPatient = o.db.prepare(
      `INSERT INTO patients (ref, looked_up_at, id_type, masked_name, masked_id_number, covered, sealed) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (ref) DO UPDATE SET looked_up_at = excluded.looked_up_at, id_type = excluded.id_type, masked_name = excluded.masked_name,
         masked_id_number = excluded.masked_id_number, covered = excluded.covered, sealed = excluded.sealed`,
    );
  }

  /**
   * Reloads this shift's patients (their interventions are fetched again when asked for; details
   * that had not come in before a restart are asked for again). Older look-ups are deleted:
   * workflows keep what they need of their patient in their own record.
   */
  load(): void {
    const cutoff = new Date(this.o.clock.now() - KEEP_MS).toISOString();
    this.o.db.prepare('DELETE FROM patients WHERE julianday(looked_up_at) < julianday(?)').run(cutoff);
    const rows = this.o.db.prepare('SELECT sealed FROM patients').all() as { sealed: string }[];
    for (const row of rows) {
      try {
        const stored = this.o.sealer.open<StoredPatient>(row.sealed);
        this.teachScrubber(stored);
        this.entries.set(stored.ref, { ...stored, subBenefits: null, loading: null, lists: new Map(), listed: new Map(), details: null, generation: 0 });
      } catch (error) {
        this.o.log.warn({ err: (error as Error).message }, 'a looked-up patient could not be read back');
      }
    }
  }

  /**
   * Registry ∥ eligibility; the patient is known as soon as eligibility names their CR number (the
   * registry's answer is waited for only when it does not, or to tell "not found" from "not
   * covered"). A covered patient's details start at once; the answer waits for them unless asked
   * to answer at eligibility.
   */
  async lookUp(input: LookUpInput): Promise<PatientSummary> {
    const client = this.o.session.client();
    const query = { identification_number: input.idNumber, identification_type: input.idType };
    this.o.scrubber.add(input.idNumber, '[patient]');
    const registry = client.registry.findPatient(query).then(
      (found) => ({ id: found.id as string | undefined, error: undefined }),
      (error: unknown) => ({ id: undefined, error }),
    );
    const e = await client.eligibility.check(query);
    let patientId = e.found ? e.crNumber : undefined;
    if (patientId === undefined) {
      const answer = await registry;
      if (answer.error !== undefined && !(isExchangeError(answer.error) && answer.error.kind === 'not_found')) throw answer.error;
      patientId = answer.id ?? e.crNumber;
    }
    if (patientId === undefined) fail('NOT_FOUND', 'No patient with that ID in the client registry.', { field: 'idNumber' });
    this.o.scrubber.add(patientId, '[patient]');
    this.o.scrubber.addName(e.fullName);

    const serviceType = input.serviceType ?? this.o.settings.values.defaultServiceType;
    const entry = this.fromEligibility(e, input, patientId, serviceType);
    // A window opened by BIOMETRICS_NOT_FOUND_OTP_ALLOWED is the exchange's, not the look-up's: it outlives a new look-up.
    entry.unusableUntil = this.entries.get(entry.ref)?.unusableUntil ?? null;
    this.entries.set(entry.ref, entry);
    this.persist(entry);
    if (entry.covered) this.startDetails(entry);
    if (input.answerAt !== 'eligibility') await this.ready(entry.ref);
    return this.summary(entry);
  }

  /** The patient once consent has what it needs: the contacts and the suggestion (asked for again after a failure). */
  async ready(ref: string): Promise<PatientSummary> {
    const entry = this.entry(ref);
    if (entry.covered && entry.detailsLoaded === false) {
      if (entry.details === null) this.startDetails(entry);
      await entry.details;
    }
    return this.summary(entry);
  }

  /**
   * For a member covered under two schemes: the nurse's choice of the scheme that pays. The
   * exchange takes it with a consent token (POST /authorizations/covers {consent_token,
   * principal_cr_id, policy_number}, R and K), so it is only recorded here and set on the claim
   * once the visit opens (`chosenCover`).
   */
  chooseScheme(ref: string, schemeId: string): PatientSummary {
    const entry = this.entry(ref);
    const scheme = entry.schemes.find((s) => s.schemeId === schemeId);
    if (scheme === undefined) fail('NOT_FOUND', 'The patient has no such scheme.', { field: 'schemeId' });
    if (!scheme.covered) fail('NOT_COVERED', 'That scheme does not cover the patient.', { field: 'schemeId' });
    // Patients stored before the covers call took a consent token have no cover keys: look them up again.
    if (entry.coverKeys === undefined) fail('NOT_FOUND', 'Look the patient up again to choose the scheme.', { field: 'patientRef' });
    const key = entry.coverKeys.find((k) => k.schemeId === schemeId);
    if (key?.principalCrId == null || key.policyNumber == null) {
      fail('VALIDATION', 'The exchange gave no policy number or principal for that scheme, so it cannot be set as the cover: choose another scheme or contact SHA.', { field: 'schemeId' });
    }
    entry.chosenSchemeId = schemeId;
    entry.memberType = scheme.memberType ?? entry.memberType;
    entry.coverageStart = scheme.coverageStart;
    entry.coverageEnd = scheme.coverageEnd;
    this.persist(entry);
    return this.summary(entry);
  }

  /**
   * The cover to set on a claim of this patient: the scheme the nurse chose when the member is
   * covered under two; null when one scheme covers (nothing to choose) or the patient is no longer
   * looked up here.
   */
  chosenCover(ref: string): { principalCrId: string; policyNumber: string } | null {
    const e = this.entries.get(ref);
    if (e === undefined || !this.twoCover(e) || e.chosenSchemeId === null) return null;
    const key = e.coverKeys?.find((k) => k.schemeId === e.chosenSchemeId);
    return key?.principalCrId == null || key.policyNumber == null ? null : { principalCrId: key.principalCrId, policyNumber: key.policyNumber };
  }

  recent(): z.infer<typeof recentPatient>[] {
    const since = this.o.clock.now() - SHIFT_MS;
    return [...this.entries.values()]
      .filter((e) => Date.parse(e.lookedUpAt) >= since)
      .sort((a, b) => b.lookedUpAt.localeCompare(a.lookedUpAt))
      .slice(0, 50)
      .map((e) => ({ patientRef: e.ref, maskedName: e.maskedName, idType: e.idType, maskedIdNumber: maskIdNumber(e.idNumber), covered: e.covered, lookedUpAt: e.lookedUpAt }));
  }

  async subBenefits(ref: string, careSetting: SubBenefit['careSetting'] | undefined, search: string | undefined): Promise<SubBenefit[]> {
    const entry = this.entry(ref);
    const subBenefits = await this.subBenefitsOf(entry);
    const needle = search?.trim().toLowerCase() ?? '';
    return subBenefits
      .map((s): SubBenefit => {
        // Only counts already at hand: asking the exchange for every list would defeat loading on demand.
        const count = entry.listed.get(s.code)?.length;
        return {
          code: s.code.slice(0, 60),
          name: text(s.name, 200) ?? s.code.slice(0, 60),
          careSetting: careSettingOf(s.accessPoint),
          fund: text(s.fund, 60),
          interventionCount: s.allowedInterventions.length > 0 ? s.allowedInterventions.length : (count ?? null),
        };
      })
      .filter((s) => careSetting === undefined || s.careSetting === careSetting || s.careSetting === 'both')
      .filter((s) => needle === '' || s.code.toLowerCase().includes(needle) || s.name.toLowerCase().includes(needle));
  }

  /**
   * The interventions of the patient's sub-benefits (or of one), as far as they are listed. One
   * sub-benefit's list not in yet is asked for at once (the nurse waits for it), or in its turn
   * with `background`; all of them go in their turn ('soon', ahead of the background).
   */
  async interventions(
    ref: string,
    filter: { subBenefitCode?: string | undefined; scenario?: ContractIntervention['scenario'] | undefined; search?: string | undefined; background?: boolean | undefined },
  ): Promise<ContractIntervention[]> {
    const entry = this.entry(ref);
    const subBenefits = await this.subBenefitsOf(entry);
    const one = filter.subBenefitCode !== undefined;
    const wanted = one ? subBenefits.filter((s) => s.code === filter.subBenefitCode) : subBenefits;
    const lane: Lane = filter.background === true ? 'background' : one ? 'now' : 'soon';
    const needle = filter.search?.trim().toLowerCase() ?? '';
    return (await this.interventionsOf(entry, wanted, lane)).filter(
      (i) => (filter.scenario === undefined || i.scenario === filter.scenario) && (needle === '' || i.code.toLowerCase().includes(needle) || i.name.toLowerCase().includes(needle)),
    );
  }

  /**
   * One intervention of the patient's benefits, by code (INTERVENTION_NOT_ALLOWED when not among
   * them): looked for in the lists already asked for, then in the others.
   */
  async intervention(ref: string, code: string): Promise<ContractIntervention> {
    const entry = this.entry(ref);
    const listed = [...entry.listed.values()].flat().find((i) => i.code === code);
    if (listed !== undefined) return listed;
    const subBenefits = await this.subBenefitsOf(entry);
    const asked = subBenefits.filter((s) => entry.lists.has(s.code));
    const found =
      (await this.interventionsOf(entry, asked, 'now')).find((i) => i.code === code) ??
      (await this.interventionsOf(entry, subBenefits.filter((s) => !asked.includes(s)), 'soon')).find((i) => i.code === code);
    if (found === undefined) fail('INTERVENTION_NOT_ALLOWED', 'That intervention is not among the patient’s benefits.', { field: 'interventionCode' });
    return found;
  }

  async utilization(ref: string, interventionCode: string): Promise<z.infer<typeof utilizationSchema>> {
    const entry = this.entry(ref);
    const records = await this.o.session.client().eligibility.utilization({ patient_id: entry.patientId, intervention_code: interventionCode });
    return summariseUtilization(interventionCode, records);
  }

  summaryOf(ref: string): PatientSummary {
    return this.summary(this.entry(ref));
  }

  /** What a new workflow needs to know of the patient. */
  facts(ref: string): PatientFacts & { covered: boolean; schemeChoiceNeeded: boolean; unusableUntil: number | null; suggested: InterventionBrief | null; serviceType: ServiceType } {
    const e = this.entry(ref);
    return {
      ref: e.ref,
      maskedName: e.maskedName,
      patientId: e.patientId,
      biometricsEnforced: e.biometricsEnforced,
      whitelisted: e.whitelisted,
      contacts: e.contacts,
      covered: e.covered,
      schemeChoiceNeeded: this.schemeChoiceNeeded(e),
      unusableUntil: e.unusableUntil,
      suggested: e.suggested,
      serviceType: e.serviceType,
    };
  }

  /** Fingerprints found unusable: this patient's next workflows start on the SMS fallback. */
  markUnusable(ref: string, until: number): void {
    const e = this.entries.get(ref);
    if (e === undefined) return;
    e.unusableUntil = until;
    this.persist(e);
  }

  markWhitelisted(ref: string): void {
    const e = this.entries.get(ref);
    if (e === undefined) return;
    e.whitelisted = true;
    this.persist(e);
  }

  /**
   * Remembers the intervention a visit was opened for, to suggest it next time, with the
   * sub-benefit it was listed under (so that its list is asked for beside the contacts, without
   * waiting for the sub-benefits), and counts the sub-benefit's visits (the most used are asked
   * for first).
   */
  rememberUsual(ref: string, serviceType: ServiceType, code: string): void {
    this.o.settings.remember(`usual.${serviceType}`, code);
    const listed = this.entries.get(ref)?.listed;
    const subBenefitCode = [...(listed?.entries() ?? [])].find(([, items]) => items.some((i) => i.code === code))?.[0];
    if (subBenefitCode === undefined) return;
    this.o.settings.remember(`usualSubBenefit.${serviceType}`, subBenefitCode);
    const uses = this.subBenefitUses(serviceType);
    uses[subBenefitCode] = (uses[subBenefitCode] ?? 0) + 1;
    this.o.settings.remember(`subBenefitUses.${serviceType}`, JSON.stringify(uses));
  }

  has(ref: string): boolean {
    return this.entries.has(ref);
  }

  private entry(ref: string): Entry {
    const e = this.entries.get(ref);
    if (e === undefined) fail('NOT_FOUND', 'No patient with that reference was looked up on this station; look the patient up again.', { field: 'patientRef' });
    return e;
  }

  private twoCover(e: StoredPatient): boolean {
    return e.schemes.filter((s) => s.covered).length > 1;
  }

  private schemeChoiceNeeded(e: StoredPatient): boolean {
    return e.chosenSchemeId === null && this.twoCover(e);
  }

  private summary(e: Entry): PatientSummary {
    const route = decideRoute({
      purpose: 'visit',
      biometricsEnforced: e.biometricsEnforced,
      whitelisted: e.whitelisted,
      hasPhone: e.contacts.length > 0,
      fingerprintsUnusableUntil: e.unusableUntil ?? undefined,
      now: this.o.clock.now(),
    });
    return {
      patientRef: e.ref,
      identity: identityOf(e),
      maskedName: e.maskedName,
      idType: e.idType,
      maskedIdNumber: maskIdNumber(e.idNumber),
      ageYears: e.ageYears,
      covered: e.covered,
      message: e.message,
      reason: e.reason,
      possibleSolution: e.possibleSolution,
      schemes: e.schemes,
      chosenSchemeId: e.chosenSchemeId,
      schemeChoiceNeeded: this.schemeChoiceNeeded(e),
      memberType: e.memberType,
      coverageStart: e.coverageStart,
      coverageEnd: e.coverageEnd,
      badges: { smsCodeAllowed: e.covered && route.smsAllowed, fingerprintRequired: e.covered && !route.smsAllowed },
      hasPhone: e.contacts.length > 0,
      suggestedIntervention: e.suggested,
      detailsLoading: e.covered && e.detailsLoaded === false,
      lookedUpAt: e.lookedUpAt,
    };
  }

  private fromEligibility(e: Eligibility, input: LookUpInput, patientId: string, serviceType: ServiceType): Entry {
    const schemeIdOf = (s: Eligibility['schemes'][number], index: number) => (s.id ?? s.name ?? `scheme-${index + 1}`).slice(0, 100);
    const schemes: Scheme[] = e.schemes.slice(0, 10).map((s, index) => ({
      schemeId: schemeIdOf(s, index),
      name: text(s.name, 200) ?? text(s.id, 200) ?? `Scheme ${index + 1}`,
      memberType: text(s.memberType, 100),
      covered: s.covered,
      coverageStart: dateOf(s.coverage.start),
      coverageEnd: dateOf(s.coverage.end),
      reason: text(s.reason, 500),
      possibleSolution: text(s.possibleSolution, 500),
    }));
    const covering = schemes.filter((s) => s.covered);
    const chosen = covering.length === 1 ? covering[0]! : null;
    return {
      ref: this.refOf(input),
      lookedUpAt: new Date(this.o.clock.now()).toISOString(),
      idType: input.idType,
      idNumber: input.idNumber,
      patientId,
      fullName: e.fullName ?? null,
      maskedName: maskName(e.fullName),
      ageYears: ageOf(e.dateOfBirth, this.o.clock.now()),
      sex: sexOf(e.gender),
      dateOfBirth: dateOf(e.dateOfBirth),
      covered: e.covered,
      message: text(e.message, 500),
      reason: e.covered ? null : text(e.reason, 500),
      possibleSolution: e.covered ? null : text(e.possibleSolution, 500),
      schemes,
      coverKeys: e.schemes.slice(0, 10).map((s, index) => ({ schemeId: schemeIdOf(s, index), principalCrId: s.principalCrNumber ?? null, policyNumber: s.policyNumber ?? null })),
      chosenSchemeId: chosen?.schemeId ?? null,
      memberType: text(e.memberType, 100),
      coverageStart: dateOf(e.coverage.start),
      coverageEnd: dateOf(e.coverage.end),
      whitelisted: e.whitelistedForOTP,
      biometricsEnforced: e.facilityBiometricsEnforced,
      contractedFunds: fundsOf(e.facilityContracts),
      contacts: [],
      serviceType,
      suggested: null,
      unusableUntil: null,
      detailsLoaded: !e.covered,
      subBenefits: null,
      loading: null,
      lists: new Map(),
      listed: new Map(),
      details: null,
      generation: ++this.lookUps,
    };
  }

  /**
   * The patient's ref: the same for the same identification at the same facility for as long as
   * the station keeps its data, so that a look-up on the day of an elective visit finds phase one.
   * The ref itself is random (never derived from the ID number or an exchange id); it is found again
   * by a keyed hash of the identification.
   */
  private refOf(input: LookUpInput): string {
    const facility = this.o.settings.values.facilityCode ?? '';
    const key = this.o.sealer.keyedHash(['patient-ref', facility.toUpperCase(), input.idType, input.idNumber.trim().toUpperCase()].join('\n'));
    const known = this.selectRef.get(key) as { ref: string } | undefined;
    if (known !== undefined) return known.ref;
    const ref = this.o.newRef();
    this.insertRef.run(key, ref, new Date(this.o.clock.now()).toISOString());
    return ref;
  }

  /** The patient's sub-benefits, every page, once per look-up (joined by concurrent callers); none when not covered. */
  private async subBenefitsOf(entry: Entry): Promise<WireSubBenefit[]> {
    if (!entry.covered) return [];
    if (entry.subBenefits !== null) return entry.subBenefits;
    entry.loading ??= (async () => {
      const client = this.o.session.client();
      entry.subBenefits = await allPages((page) => client.eligibility.subBenefits({ patient_id: entry.patientId, page, pageSize: PAGE }));
    })().finally(() => {
      entry.loading = null;
    });
    await entry.loading;
    return entry.subBenefits ?? [];
  }

  /** Asks for the details consent needs; a failure is forgotten, so that the next ready() asks again. */
  private startDetails(entry: Entry): void {
    const details = this.loadDetails(entry).then(
      () => {
        entry.details = null;
        entry.detailsLoaded = true;
        this.persist(entry);
      },
      (error: unknown) => {
        entry.details = null;
        throw error;
      },
    );
    entry.details = details;
    void details.catch(ignore);
  }

  /**
   * The contacts ∥ the sub-benefits ∥ the lists of the ward's usual and most-used sub-benefits
   * (their codes are remembered, so they go out beside the others); the suggestion from the usual
   * sub-benefit's list when it fits, else from the ward's sub-benefits in the exchange's order.
   * Consent waits for the contacts and the suggestion only; the other lists follow in the
   * background once the sub-benefits are in.
   */
  private async loadDetails(entry: Entry): Promise<void> {
    const client = this.o.session.client();
    const usual = this.usualOf(entry.serviceType);
    if (usual.subBenefitCode !== undefined) void this.listOf(entry, usual.subBenefitCode, 'now').catch(ignore);
    for (const code of this.mostUsed(entry.serviceType, usual.subBenefitCode)) void this.listOf(entry, code, 'soon').catch(ignore);
    // The services list needs the sub-benefits, consent does not: they are not waited for here.
    void this.subBenefitsOf(entry).then((all) => {
      for (const s of this.inTurn(all, entry.serviceType)) void this.listOf(entry, s.code, 'background').catch(ignore);
    }, ignore);
    const [contacts, suggestion] = await Promise.all([client.consent.contacts({ patient_id: entry.patientId }), this.suggest(entry, usual)]);
    entry.contacts = contacts.slice(0, 20).map((c) => ({ contactId: c.id.slice(0, 100), masked: maskContact(c.value), main: c.main }));
    if (entry.contacts.length > 0 && !entry.contacts.some((c) => c.main)) entry.contacts[0] = { ...entry.contacts[0]!, main: true };
    entry.suggested = suggestion === null ? null : briefOf(suggestion);
  }

  /**
   * The intervention that fits the ward (suggestIntervention): from the usual sub-benefit's list
   * when it has one; else the first of the ward's sub-benefits, in the exchange's order, that has
   * one — each asked for in its turn, the first answers decide. A usual intervention whose
   * sub-benefit is not remembered is looked for in them all.
   */
  private async suggest(entry: Entry, usual: Usual): Promise<ContractIntervention | null> {
    const pick = (items: readonly ContractIntervention[]) => suggestIntervention(items, entry.serviceType, entry.contractedFunds, usual.code);
    if (usual.subBenefitCode !== undefined) {
      const fromUsual = pick(await this.listOf(entry, usual.subBenefitCode, 'now'));
      if (fromUsual !== null) return fromUsual;
    }
    const ward = (await this.subBenefitsOf(entry)).filter((s) => this.fitsWard(s, entry.serviceType));
    const lists = ward.map((s) => this.listOf(entry, s.code, 'soon'));
    if (usual.code !== undefined && usual.subBenefitCode === undefined) return pick((await Promise.all(lists)).flat());
    for (const list of lists) {
      const found = pick(await list);
      if (found !== null) return found;
    }
    return null;
  }

  private fitsWard(s: WireSubBenefit, serviceType: ServiceType): boolean {
    const setting = careSettingOf(s.accessPoint);
    return setting === 'both' || setting === (serviceType === 'INPATIENT' ? 'inpatient' : 'outpatient');
  }

  /** The order the background follows: the ward's most-used sub-benefits, then the ward's, then the others, each in the exchange's order. */
  private inTurn(subBenefits: readonly WireSubBenefit[], serviceType: ServiceType): WireSubBenefit[] {
    const uses = this.subBenefitUses(serviceType);
    const rank = (s: WireSubBenefit) => -(uses[s.code] ?? 0) * 2 + (this.fitsWard(s, serviceType) ? 0 : 1);
    return subBenefits.map((s, index) => ({ s, index })).sort((a, b) => rank(a.s) - rank(b.s) || a.index - b.index).map(({ s }) => s);
  }

  private usualOf(serviceType: ServiceType): Usual {
    return { code: this.o.settings.memo(`usual.${serviceType}`), subBenefitCode: this.o.settings.memo(`usualSubBenefit.${serviceType}`) };
  }

  /** The sub-benefits this station opened the most visits under, the usual one left out. */
  private mostUsed(serviceType: ServiceType, usual: string | undefined): string[] {
    return Object.entries(this.subBenefitUses(serviceType))
      .filter(([code]) => code !== usual)
      .sort(([, a], [, b]) => b - a)
      .slice(0, MOST_USED)
      .map(([code]) => code);
  }

  private subBenefitUses(serviceType: ServiceType): Record<string, number> {
    try {
      const parsed: unknown = JSON.parse(this.o.settings.memo(`subBenefitUses.${serviceType}`) ?? '{}');
      if (typeof parsed !== 'object' || parsed === null) return {};
      return Object.fromEntries(Object.entries(parsed).filter((pair): pair is [string, number] => typeof pair[1] === 'number'));
    } catch {
      return {};
    }
  }

  /**
   * One sub-benefit's interventions, fetched once per look-up in its lane (a lane asked for again
   * more urgently moves it up). The first page goes without paging parameters (the exchange serves
   * a sub-benefit's list whole); more only if it says so.
   */
  private listOf(entry: Entry, code: string, lane: Lane): Promise<ContractIntervention[]> {
    const known = entry.lists.get(code);
    if (known !== undefined) {
      known.raise(lane);
      return known.promise;
    }
    const client = this.o.session.client();
    const queued = this.lists.enqueue(lane, entry.generation, async () => {
      const items = await allPages((page) => client.eligibility.interventions({ patient_id: entry.patientId, sub_benefit_code: code, ...(page === 1 ? {} : { page }) }));
      const mapped = items.map((i) => toContractIntervention(i, code));
      entry.listed.set(code, mapped);
      return mapped;
    });
    entry.lists.set(code, queued);
    void queued.promise.catch(() => {
      if (entry.lists.get(code) === queued) entry.lists.delete(code);
    });
    return queued.promise;
  }

  /** The interventions of these sub-benefits, in their order; an intervention listed under two is shown once, under the first. */
  private async interventionsOf(entry: Entry, subBenefits: readonly WireSubBenefit[], lane: Lane): Promise<ContractIntervention[]> {
    const lists = await Promise.all(subBenefits.map((s) => this.listOf(entry, s.code, lane)));
    const byCode = new Map<string, ContractIntervention>();
    for (const i of lists.flat()) if (!byCode.has(i.code)) byCode.set(i.code, i);
    return [...byCode.values()];
  }

  private persist(entry: Entry): void {
    const { subBenefits: _s, loading: _l, lists: _q, listed: _d, details: _p, generation: _g, ...stored } = entry;
    this.teachScrubber(stored);
    this.upsertPatient.run(stored.ref, stored.lookedUpAt, stored.idType, stored.maskedName, maskIdNumber(stored.idNumber), stored.covered ? 1 : 0, this.o.sealer.seal(stored));
  }

  private teachScrubber(p: StoredPatient): void {
    this.o.scrubber.add(p.idNumber, '[patient]');
    this.o.scrubber.add(p.patientId, '[patient]');
    for (const k of p.coverKeys ?? []) {
      if (k.principalCrId !== null) this.o.scrubber.add(k.principalCrId, '[patient]');
      if (k.policyNumber !== null) this.o.scrubber.add(k.policyNumber, '[policy]');
    }
    this.o.scrubber.addName(p.fullName ?? undefined);
  }
}

/** The first page, then the rest together. */
async function allPages<T>(fetchPage: (page: number) => Promise<Page<T>>): Promise<T[]> {
  const first = await fetchPage(1);
  const rest = await Promise.all(Array.from({ length: Math.max(0, Math.min(first.totalPages, 50) - 1) }, (_, i) => fetchPage(i + 2)));
  return [first, ...rest].flatMap((p) => p.items);
}

/**
 * What is left for one intervention, as the nurse sees it. The exchange answers one record (the
 * portal docs) or one per limit scope (UAT, R): the limits are read from the first record that has
 * them, and the service is available only when some record answered and none says it is exhausted
 * or not eligible.
 */
export function summariseUtilization(interventionCode: string, records: readonly WireUtilization[]): z.infer<typeof utilizationSchema> {
  const limit = (max: number | undefined, used: number | undefined) =>
    max === undefined ? null : { limitKes: clampKes(max), usedKes: clampKes(used ?? 0), remainingKes: clampKes(max - (used ?? 0)) };
  const individual = limit(...firstPair(records, (u) => [u.individualMaxLimit, u.individualUtilisedLimit]));
  const household = limit(...firstPair(records, (u) => [u.householdMaxLimit, u.householdUtilisedLimit]));
  const exhausted = records.some((u) => {
    const rows = [limit(u.individualMaxLimit, u.individualUtilisedLimit), limit(u.householdMaxLimit, u.householdUtilisedLimit)];
    return u.eligible === false || rows.some((l) => l !== null && l.remainingKes <= 0);
  });
  const scopes = [...new Set(records.map((u) => u.limitScope?.trim()).filter((s): s is string => s !== undefined && s !== ''))];
  const days = records.map((u) => u.utilizationDays).filter((d): d is number => d !== undefined);
  return {
    interventionCode,
    available: records.length > 0 && !exhausted,
    individual,
    household,
    limitScope: text(scopes.join(', '), 100),
    nextAvailableAt: text(records.map((u) => u.nextAvailability ?? u.nextAvailableDate).find((d) => d !== undefined && d.trim() !== ''), 40),
    utilizationDays: days.length === 0 ? null : Math.max(0, Math.round(Math.max(...days))),
  };
}

/** The first record's pair of values where the first is known. */
function firstPair<T>(records: readonly T[], pick: (record: T) => [number | undefined, number | undefined]): [number | undefined, number | undefined] {
  return records.map(pick).find(([max]) => max !== undefined) ?? [undefined, undefined];
}

function clampKes(value: number): number {
  return Math.min(Math.max(0, Math.round(value * 100) / 100), 1_000_000_000);
}

function dateOf(value: string | undefined): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(value ?? '');
  return match?.[1] ?? null;
}

/** The patient in hand in full, for the nurse's check (contract: patientIdentity). */
function identityOf(e: StoredPatient): PatientIdentity {
  return { fullName: text(e.fullName ?? undefined, 200), sex: e.sex ?? null, dateOfBirth: e.dateOfBirth ?? null, idNumberEnd: idNumberEndOf(e.idNumber) };
}

/** `gender` as the exchange spells it (Female, MALE, F, …); anything else is not guessed at. */
function sexOf(gender: string | undefined): PatientIdentity['sex'] {
  const value = gender?.trim().toUpperCase() ?? '';
  if (value === 'F' || value === 'FEMALE') return 'female';
  if (value === 'M' || value === 'MALE') return 'male';
  return null;
}

/** The ID number's last characters for the nurse's check: four at most, never more than half of it. */
export function idNumberEndOf(idNumber: string): string {
  const value = idNumber.trim();
  return value.slice(-Math.max(1, Math.min(4, Math.floor(value.length / 2))));
}

function ageOf(dateOfBirth: string | undefined, now: number): number | null {
  const dob = dateOf(dateOfBirth);
  if (dob === null) return null;
  const birth = new Date(`${dob}T00:00:00Z`);
  const today = new Date(now);
  let age = today.getUTCFullYear() - birth.getUTCFullYear();
  if (today.getUTCMonth() < birth.getUTCMonth() || (today.getUTCMonth() === birth.getUTCMonth() && today.getUTCDate() < birth.getUTCDate())) age -= 1;
  return age >= 0 && age <= 150 ? age : null;
}

/** The funds the facility is contracted for, from `facilityContracts` ([{fund, status}] or ["SHIF"]); null when not said. */
function fundsOf(contracts: readonly unknown[]): string[] | null {
  const funds = contracts.flatMap((c) => {
    if (typeof c === 'string') return [c.toUpperCase()];
    if (typeof c === 'object' && c !== null && typeof (c as { fund?: unknown }).fund === 'string') {
      const status = (c as { status?: unknown }).status;
      return status === undefined || status === null || String(status).toUpperCase() === 'ACTIVE' ? [String((c as { fund: string }).fund).toUpperCase()] : [];
    }
    return [];
  });
  return funds.length === 0 ? null : funds;
}
