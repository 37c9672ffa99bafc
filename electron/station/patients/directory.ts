// Finding the patient and what they are covered for, with as few round trips as the data allows.
// The registry look-up and the eligibility check go out together (both need only the ID number);
// the nurse sees "Covered" the moment eligibility is in. Then, together: the contacts, the
// sub-benefits, and the interventions of the ward's usual sub-benefit (remembered: its code needs
// no list), which is what consent needs — the phones and the suggested service. For a patient the
// station has looked up before, the phones and the usual list go out with the eligibility check
// (they need only the CR number, kept with the patient). Only a few lists are asked for without
// the nurse (services.ts, ward.ts); a patient's lists are kept for their look-ups within a shift.
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { recentPatient, subBenefit as subBenefitSchema, utilization as utilizationSchema } from '../../contract';
import { isExchangeError } from '../../payer';
import type { Clock } from '../deps';
import type { Db } from '../db';
import { fail } from '../errors';
import type { Scrubber } from '../logging';
import { maskContact, maskIdNumber } from '../masking';
import type { Quarantine } from '../quarantine';
import type { Sealer } from '../sealing';
import type { ExchangeSession } from '../session';
import type { SettingsStore } from '../settings';
import { envelopeOf } from '../versioned';
import type { InterventionBrief, PatientFacts, PatientInHandRecord, ServiceType } from '../workflows/types';
import { briefOf, careSettingOf, type ContractIntervention } from './interventions';
import { ServiceCatalogue } from './catalogue';
import { ListQueue, type Lane } from './list-queue';
import { inHandOf, recordOf, schemeChoiceNeeded, summaryOf, twoCover, type IdType, type PatientSummary, type StoredPatient } from './record';
import { PatientServices } from './services';
import { patientRecord, readPatient } from './stored';
import { text } from './text';
import { summariseUtilization } from './utilization';
import { suggestFor, WardHabits } from './ward';

type SubBenefit = z.infer<typeof subBenefitSchema>;
type Contacts = Awaited<ReturnType<ReturnType<ExchangeSession['client']>['consent']['contacts']>>;

interface Entry extends StoredPatient {
  services: PatientServices;
  /** The contacts and the suggestion, on their way; null when in, or after a failure (asked again on demand). */
  details: Promise<void> | null;
}

const SHIFT_MS = 12 * 60 * 60 * 1000;
/** Look-ups are kept a day, then deleted (the recent list shows a shift's). */
const KEEP_MS = 24 * 60 * 60 * 1000;
/**
 * A patient's lists serve their later look-ups for a shift: the field notes keep them "per visit"
 * (FN "Sub-benefits and interventions"), K's screens for as long as the page lives (SWR keyed by
 * patient and sub-benefit); a visit outlasting a shift asks again.
 */
const LISTS_KEEP_MS = SHIFT_MS;
/** Lists one search may ask for that were not asked for before. */
const SEARCH_LISTS = 2;

interface LookUpInput {
  idType: IdType;
  idNumber: string;
  serviceType?: ServiceType | undefined;
  /** `eligibility`: answer the moment eligibility is in; `details` (default): once consent has what it needs. */
  answerAt?: 'eligibility' | 'details' | undefined;
}

const ignore = () => undefined;

export class PatientDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly lists = new ListQueue();
  private readonly ward: WardHabits;
  private readonly catalogue: ServiceCatalogue;
  private lookUps = 0;
  // Prepared once: every look-up finds the patient's ref and stores the patient.
  private readonly selectRef;
  private readonly insertRef;
  private readonly upsertPatient;

  constructor(
    private readonly o: {
      db: Db;
      sealer: Sealer;
      /** Where a look-up that cannot be read back is set aside. */
      quarantine: Quarantine;
      session: ExchangeSession;
      settings: SettingsStore;
      clock: Clock;
      log: Logger;
      scrubber: Scrubber;
      newRef: () => string;
    },
  ) {
    this.ward = new WardHabits(o.settings);
    this.catalogue = new ServiceCatalogue({ db: o.db, clock: o.clock });
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
    this.catalogue.load();
    const cutoff = new Date(this.o.clock.now() - KEEP_MS).toISOString();
    this.o.db.prepare('DELETE FROM patients WHERE julianday(looked_up_at) < julianday(?)').run(cutoff);
    const rows = this.o.db.prepare('SELECT ref, sealed FROM patients').all() as { ref: string; sealed: string }[];
    for (const row of rows) {
      const read = readPatient(this.o.sealer, row.sealed);
      if (!read.ok || read.value.ref !== row.ref) {
        const unread = read.ok ? { reason: 'invalid' as const, detail: 'the record names another patient than its row' } : read;
        this.o.quarantine.hold('patient', row.ref, null, unread);
        this.o.log.warn({ reason: unread.reason, detail: unread.detail }, 'a looked-up patient could not be read back: set aside');
        continue;
      }
      this.o.quarantine.release('patient', row.ref, null);
      this.teachScrubber(read.value);
      this.entries.set(read.value.ref, this.entryOf(read.value, 0, undefined));
    }
    this.o.quarantine.keepOnly('patient', new Set(rows.map((r) => r.ref)));
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
    const serviceType = input.serviceType ?? this.o.settings.values.defaultServiceType;
    const ahead = this.askAhead(input, serviceType);
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

    const record = recordOf(e, { ref: this.refOf(input), idType: input.idType, idNumber: input.idNumber, patientId, serviceType, now: this.o.clock.now() });
    const prior = this.entries.get(record.ref);
    // What went out ahead is used only for the patient eligibility names, covered.
    const fromAhead = ahead !== undefined && ahead.services.patientId === patientId && record.covered ? ahead : undefined;
    const entry = this.entryOf(record, ++this.lookUps, fromAhead?.services ?? this.keptServices(prior, record));
    // A window opened by BIOMETRICS_NOT_FOUND_OTP_ALLOWED is the exchange's, not the look-up's: it outlives a new look-up.
    entry.unusableUntil = prior?.unusableUntil ?? null;
    this.entries.set(entry.ref, entry);
    this.persist(entry);
    if (entry.covered) this.startDetails(entry, fromAhead?.contacts);
    if (input.answerAt !== 'eligibility') await this.ready(entry.ref);
    return this.summary(entry);
  }

  /** The patient once consent has what it needs: the contacts and the suggestion (asked for again after a failure). */
  async ready(ref: string): Promise<PatientSummary> {
    const entry = this.entry(ref);
    if (entry.covered && entry.detailsLoaded === false) {
      if (entry.details === null) this.startDetails(entry, undefined);
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
    if (e === undefined || !twoCover(e) || e.chosenSchemeId === null) return null;
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
    const subBenefits = await entry.services.subBenefits();
    const needle = search?.trim().toLowerCase() ?? '';
    return subBenefits
      .map((s): SubBenefit => {
        // Only counts already at hand: asking the exchange for every list would defeat loading on demand.
        const count = entry.services.listed.get(s.code)?.length;
        return {
          code: s.code.slice(0, 60),
          name: text(s.name, 200) ?? s.code.slice(0, 60),
          careSetting: careSettingOf(s.accessPoint),
          fund: text(s.fund, 60),
          interventionCount: s.allowedInterventions.length > 0 ? s.allowedInterventions.length : (count ?? null),
          listing: entry.services.listing(s.code),
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
    const subBenefits = await entry.services.subBenefits();
    const one = filter.subBenefitCode !== undefined;
    const wanted = one ? subBenefits.filter((s) => s.code === filter.subBenefitCode) : subBenefits;
    const lane: Lane = filter.background === true ? 'background' : one ? 'now' : 'soon';
    const needle = filter.search?.trim().toLowerCase() ?? '';
    return (await entry.services.interventionsOf(wanted, lane)).filter(
      (i) => (filter.scenario === undefined || i.scenario === filter.scenario) && (needle === '' || i.code.toLowerCase().includes(needle) || i.name.toLowerCase().includes(needle)),
    );
  }

  /**
   * The lists a nurse's search points to, asked for now (SEARCH_LISTS at most that were not asked
   * before): those SHA's earlier answers listed a matching service under (the catalogue), the
   * sub-benefits whose name holds every word, and, for an intervention code, its benefit package's
   * sub-benefits (R's UAT fixtures list SHA-12-001 under SHA-12-SC-01, whose parentBenefitCode is
   * SHA-12). Answers the codes of all it points to, asked before or now.
   */
  async lookFor(ref: string, search: string): Promise<string[]> {
    const { services } = this.entry(ref);
    const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return [];
    const subBenefits = await services.subBenefits();
    const own = new Set(subBenefits.map((s) => s.code));
    const packageCode = words.map((w) => /^(sha-\d{2})-\d{3}$/.exec(w)?.[1]).find((p) => p !== undefined);
    const pointed = [
      ...this.catalogue.subBenefitsFor(words).filter((code) => own.has(code)),
      ...subBenefits.filter((s) => words.every((w) => `${s.code} ${s.name ?? ''}`.toLowerCase().includes(w))).map((s) => s.code),
      ...(packageCode === undefined
        ? []
        : subBenefits.filter((s) => (s.parentBenefitCode ?? '').toLowerCase() === packageCode || s.code.toLowerCase().startsWith(`${packageCode}-`)).map((s) => s.code)),
    ];
    let room = SEARCH_LISTS;
    const answer: string[] = [];
    for (const code of new Set(pointed)) {
      if (!services.asked(code)) {
        if (room === 0) continue;
        room -= 1;
        void services.list(code, 'now').catch(ignore);
      }
      answer.push(code);
    }
    return answer;
  }

  /**
   * One intervention of the patient's benefits, by code (INTERVENTION_NOT_ALLOWED when not among
   * them): looked for in the lists already asked for, then in those the catalogue saw it in, then
   * in the others.
   */
  async intervention(ref: string, code: string): Promise<ContractIntervention> {
    const { services } = this.entry(ref);
    const listed = [...services.listed.values()].flat().find((i) => i.code === code);
    if (listed !== undefined) return listed;
    const subBenefits = await services.subBenefits();
    const seenIn = new Set(this.catalogue.subBenefitsFor([code.toLowerCase()]));
    const [asked, hinted, rest] = [
      subBenefits.filter((s) => services.asked(s.code)),
      subBenefits.filter((s) => !services.asked(s.code) && seenIn.has(s.code)),
      subBenefits.filter((s) => !services.asked(s.code) && !seenIn.has(s.code)),
    ];
    const found =
      (await services.interventionsOf(asked, 'now')).find((i) => i.code === code) ??
      (await services.interventionsOf(hinted, 'now')).find((i) => i.code === code) ??
      (await services.interventionsOf(rest, 'soon')).find((i) => i.code === code);
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
      inHand: inHandOf(e),
      covered: e.covered,
      schemeChoiceNeeded: schemeChoiceNeeded(e),
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

  /** Remembers the intervention a visit was opened for, with the sub-benefit this patient's look-up listed it under (WardHabits). */
  rememberUsual(ref: string, serviceType: ServiceType, code: string): void {
    const listed = this.entries.get(ref)?.services.listed;
    const subBenefitCode = [...(listed?.entries() ?? [])].find(([, items]) => items.some((i) => i.code === code))?.[0];
    this.ward.remember(serviceType, code, subBenefitCode);
  }

  /** The patient in full as looked up, while the station still holds the look-up (a day); else null. */
  inHand(ref: string): PatientInHandRecord | null {
    const e = this.entries.get(ref);
    return e === undefined ? null : inHandOf(e);
  }

  has(ref: string): boolean {
    return this.entries.has(ref);
  }

  private entry(ref: string): Entry {
    const e = this.entries.get(ref);
    if (e === undefined) fail('NOT_FOUND', 'No patient with that reference was looked up on this station; look the patient up again.', { field: 'patientRef' });
    return e;
  }

  /** The patient with their services: those given (kept or asked ahead), else new ones. */
  private entryOf(stored: StoredPatient, generation: number, services: PatientServices | undefined): Entry {
    const own = services ?? this.newServices(stored.patientId, stored.covered, stored.serviceType);
    own.generation = generation;
    return { ...stored, services: own, details: null };
  }

  private newServices(patientId: string, covered: boolean, serviceType: ServiceType): PatientServices {
    return new PatientServices({
      patientId,
      covered,
      generation: this.lookUps,
      queue: this.lists,
      client: () => this.o.session.client(),
      since: this.o.clock.now(),
      plan: (subBenefits, asked) => this.ward.plan(subBenefits, asked, serviceType),
      onListed: (code, items) => this.catalogue.learn(code, items),
    });
  }

  /** The patient's services from an earlier look-up, while they may still serve (LISTS_KEEP_MS), for the same covered patient. */
  private keptServices(prior: Entry | undefined, now: StoredPatient): PatientServices | undefined {
    if (prior === undefined || !prior.covered || !now.covered || prior.services.patientId !== now.patientId) return undefined;
    return this.o.clock.now() - prior.services.since < LISTS_KEEP_MS ? prior.services : undefined;
  }

  /**
   * For a covered patient this station has looked up before: the phones and the ward's usual list
   * go out beside the eligibility check, since they need only the CR number kept with the patient
   * (the nurse's next step waits on them). Used only if eligibility names the same patient, covered.
   */
  private askAhead(input: LookUpInput, serviceType: ServiceType): { services: PatientServices; contacts: Promise<Contacts> } | undefined {
    const ref = this.knownRef(input);
    const prior = ref === undefined ? undefined : this.entries.get(ref);
    if (prior === undefined || !prior.covered) return undefined;
    const services = this.keptServices(prior, prior) ?? this.newServices(prior.patientId, true, serviceType);
    const usual = this.ward.usual(serviceType);
    if (usual.subBenefitCode !== undefined) void services.list(usual.subBenefitCode, 'now').catch(ignore);
    const contacts = this.o.session.client().consent.contacts({ patient_id: prior.patientId });
    void contacts.catch(ignore);
    return { services, contacts };
  }

  private summary(e: Entry): PatientSummary {
    return summaryOf(e, this.o.clock.now());
  }

  /**
   * The patient's ref: the same for the same identification at the same facility for as long as
   * the station keeps its data, so that a look-up on the day of an elective visit finds phase one.
   * The ref itself is random (never derived from the ID number or an exchange id); it is found again
   * by a keyed hash of the identification.
   */
  private refOf(input: LookUpInput): string {
    const known = this.knownRef(input);
    if (known !== undefined) return known;
    const ref = this.o.newRef();
    this.insertRef.run(this.refKey(input), ref, new Date(this.o.clock.now()).toISOString());
    return ref;
  }

  /** The patient's ref if the station has one (it mints none: a patient not found gets none). */
  private knownRef(input: LookUpInput): string | undefined {
    return (this.selectRef.get(this.refKey(input)) as { ref: string } | undefined)?.ref;
  }

  private refKey(input: LookUpInput): string {
    const facility = this.o.settings.values.facilityCode ?? '';
    return this.o.sealer.keyedHash(['patient-ref', facility.toUpperCase(), input.idType, input.idNumber.trim().toUpperCase()].join('\n'));
  }

  /** Asks for the details consent needs; a failure is forgotten, so that the next ready() asks again. */
  private startDetails(entry: Entry, contactsAhead: Promise<Contacts> | undefined): void {
    const details = this.loadDetails(entry, contactsAhead).then(
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
   * The contacts (unless asked ahead) ∥ the sub-benefits ∥ the lists of the ward's usual and
   * most-used sub-benefits (their codes are remembered, so they go out beside the others); the
   * sub-benefits bring the ward's first few lists (ward.ts `plan`). The suggestion from the usual
   * sub-benefit's list when it fits, else from the ward's lists in the exchange's order. Consent
   * waits for the contacts and the suggestion only.
   */
  private async loadDetails(entry: Entry, contactsAhead: Promise<Contacts> | undefined): Promise<void> {
    const client = this.o.session.client();
    const { services } = entry;
    const usual = this.ward.usual(entry.serviceType);
    if (usual.subBenefitCode !== undefined) void services.list(usual.subBenefitCode, 'now').catch(ignore);
    for (const code of this.ward.mostUsed(entry.serviceType, usual.subBenefitCode)) void services.list(code, 'soon').catch(ignore);
    // The services list needs the sub-benefits, consent does not: they are not waited for here.
    void services.subBenefits().catch(ignore);
    const [contacts, suggestion] = await Promise.all([contactsAhead ?? client.consent.contacts({ patient_id: entry.patientId }), suggestFor(services, entry, usual)]);
    entry.contacts = contacts.slice(0, 20).map((c) => ({ contactId: c.id.slice(0, 100), masked: maskContact(c.value), main: c.main }));
    if (entry.contacts.length > 0 && !entry.contacts.some((c) => c.main)) entry.contacts[0] = { ...entry.contacts[0]!, main: true };
    entry.suggested = suggestion === null ? null : briefOf(suggestion);
  }

  private persist(entry: Entry): void {
    const { services: _s, details: _d, ...stored } = entry;
    this.teachScrubber(stored);
    const sealed = this.o.sealer.seal(envelopeOf(patientRecord.current, patientRecord.check(stored)));
    this.upsertPatient.run(stored.ref, stored.lookedUpAt, stored.idType, stored.maskedName, maskIdNumber(stored.idNumber), stored.covered ? 1 : 0, sealed);
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
