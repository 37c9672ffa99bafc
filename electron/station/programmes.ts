// Issue 15's reads, as the nurse sees them: a facility of the registry (a referral's destination),
// the facility's beds by type, a POMSF member's balances, and the shared health record with every
// entry a security label restricts left out. Each takes what the exchange client read and keeps
// only what a screen shows; nothing here writes to the exchange.
import type { z } from 'zod';
import type { bedOccupancyView, facilitySummary, healthRecordView, pomsfBalanceView, pomsfTariffsView, referralDestination } from '../contract';
import { isExchangeError, type BedOccupancy, type Facility, type FhirBundle, type JsonValue, type PomsfBalance, type PomsfBenefit } from '../payer';
import { fail } from './errors';
import type { Ctx } from './workflows/context';

export type FacilitySummary = z.infer<typeof facilitySummary>;
export type ReferralDestination = z.infer<typeof referralDestination>;
type HealthRecord = z.infer<typeof healthRecordView>;

const clip = (value: string | undefined | null, max = 200): string | null => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? null : trimmed.slice(0, max);
};

/**
 * FR codes look like FID-47-108521-3 and the ministry's facility list (MFL, KMHFL) numbers facilities
 * with digits alone: either is an identifier look-up; anything else is a name search.
 */
export function facilityQuery(search: string): { identifier: string; identifier_type: 'fr-code' | 'mfl' } | { name: string } {
  const text = search.trim();
  if (/^FID-\d{2}-\d{6}-\d$/i.test(text)) return { identifier: text.toUpperCase(), identifier_type: 'fr-code' };
  if (/^\d{4,7}$/.test(text)) return { identifier: text, identifier_type: 'mfl' };
  return { name: text };
}

// Read negatively and leniently (R's reading): a status nobody recognises is not a reason to hide a
// hospital that could take the patient; the status is shown beside the name either way.
const notOperational = /suspend|closed|inactive|deregist|revoked/i;

export function facilitySummaryOf(f: Facility): FacilitySummary {
  const status = clip(f.shaOperationalStatus);
  return {
    code: f.code,
    name: clip(f.name),
    level: clip(f.level),
    operationalStatus: status,
    operational: status === null ? 'unknown' : notOperational.test(status) ? 'no' : 'yes',
    contractStatus: clip(f.shaContractStatus),
  };
}

/** A search that finds nothing is an empty list: the registry answers an unknown FR code with 404. */
export async function searchFacilities(c: Ctx, search: string) {
  try {
    return (await c.session.client().lookups.searchFacilities(facilityQuery(search))).map(facilitySummaryOf);
  } catch (error) {
    if (isExchangeError(error) && error.kind === 'not_found') return [];
    throw error;
  }
}

/** The referral destination named by its FR code, as the registry names it now. */
export async function referralDestinationOf(c: Ctx, code: string): Promise<ReferralDestination> {
  const found = (await searchFacilities(c, code)).find((f) => f.code.toUpperCase() === code.toUpperCase());
  if (found === undefined) fail('NOT_FOUND', 'The facility registry has no facility with that code: search for it again.', { field: 'referredTo' });
  return { code: found.code, name: found.name ?? found.code };
}

/**
 * The discharge's referral has no field of its own on the wire (docs/exchange-wire.md,
 * `claims.discharge`): the destination goes first in the notes, where the claim's reviewer reads it.
 */
export function referralNotes(to: ReferralDestination | null, notes: string | null): string | null {
  if (to === null) return notes;
  const line = `Referred to ${to.name} (${to.code}).`;
  return notes === null ? line : `${line} ${notes}`;
}

export function bedOccupancyOf(b: BedOccupancy, readAt: string): z.infer<typeof bedOccupancyView> {
  const rows = (
    [
      ['normal', b.beds.normal, b.visits.normal],
      ['icu', b.beds.icu, b.visits.icu],
      ['hdu', b.beds.hdu, b.visits.hdu],
      ['dialysis', b.beds.dialysis, b.visits.dialysis],
      ['newborn', b.beds.babyCots, b.visits.newborn],
    ] as const
  )
    // A bed type the facility does not have (no beds, nobody in one) is not a row.
    .filter(([, beds, inUse]) => (beds ?? 0) > 0 || (inUse ?? 0) > 0)
    .map(([bedType, beds, inUse]) => ({ bedType, beds: count(beds), inUse: count(inUse) }));
  const sum = (values: (number | null)[]) => (values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v ?? 0), 0));
  // total_number_of_bed can be 0 while the per-type counts are filled (R, UAT): the rows decide then.
  const totalBeds = b.beds.total !== undefined && b.beds.total > 0 ? count(b.beds.total) : sum(rows.map((r) => r.beds));
  const totalInUse = b.visits.inpatient !== undefined ? count(b.visits.inpatient) : sum(rows.map((r) => r.inUse));
  return { facilityName: clip(b.name), level: clip(b.level), rows, totalBeds, totalInUse, readAt };
}

function count(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) || value < 0 ? null : Math.min(Math.round(value), 1_000_000);
}

/** Policy years turn on 1 July: 1 July 2026 to 30 June 2027 is "2026" (R `policy_year_for()`). */
export function policyYearOf(nowMs: number): string {
  const now = new Date(nowMs);
  return String(now.getMonth() >= 6 ? now.getFullYear() : now.getFullYear() - 1);
}

const money = (value: number | undefined): number | null => (value === undefined || !Number.isFinite(value) || value < 0 ? null : value);

function benefitOf(b: PomsfBenefit, memberId: string | undefined) {
  // A family-shared pot is one balance seen from several members: the patient's own entry, else the first.
  const entry = b.balances.find((e) => memberId !== undefined && e.member === memberId) ?? b.balances[0];
  return {
    code: clip(b.code),
    name: clip(b.name),
    type: clip(b.type),
    familyShared: /shared/i.test(b.shared ?? ''),
    limitKes: money(b.limit),
    balanceKes: money(entry?.balance),
  };
}

export function pomsfBalanceOf(balance: PomsfBalance, policyYear: string): z.infer<typeof pomsfBalanceView> {
  return {
    policyYear,
    policies: balance.policies.slice(0, 10).map((p) => ({
      name: clip(p.name),
      schemeName: clip(p.schemeName),
      status: clip(p.status),
      benefits: p.benefits.slice(0, 50).map((b) => benefitOf(b, balance.memberNumber)),
    })),
  };
}

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOf = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * The tariffs answer has no source (field notes: response [?]); the station reads the one shape it
 * has seen, `{tariffs: [{intervention_code, name, tariff}]}`, and says so when SHA answers otherwise.
 */
export function pomsfTariffsOf(answer: JsonValue): z.infer<typeof pomsfTariffsView> {
  const tariffs = isObject(answer) && Array.isArray(answer.tariffs) ? answer.tariffs : undefined;
  if (tariffs === undefined) fail('EXCHANGE_UNREADABLE', 'SHA answered the tariff question in a form the station cannot read.');
  return {
    items: tariffs
      .filter(isObject)
      .slice(0, 20)
      .flatMap((t) => {
        const code = clip(textOf(t.intervention_code));
        if (code === null) return [];
        return [{ interventionCode: code, name: clip(textOf(t.name)), tariffKes: typeof t.tariff === 'number' ? money(t.tariff) : null }];
      }),
  };
}

// ---------------------------------------------------------------- shared health record

/**
 * The confidentiality codes a ward station may show (HL7 v3 Confidentiality: unrestricted, low,
 * moderate, normal). Everything else withholds the entry: R and V, every sensitivity code (HIV,
 * PSY, SUD, …: "a resource can be N and still carry HIV", R) and any code the station does not know.
 */
const showableConfidentiality = new Set(['U', 'L', 'M', 'N']);

/** Whether a FHIR resource's `meta.security` labels allow it on this screen. */
export function showable(resource: Record<string, JsonValue>): boolean {
  const meta = resource.meta;
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  const labels = meta.security;
  if (labels === undefined) return true;
  if (!Array.isArray(labels)) return false;
  return labels.every((label) => {
    if (!isObject(label)) return false;
    const code = textOf(label.code);
    const system = textOf(label.system);
    const confidentiality = system === undefined || system.endsWith('v3-Confidentiality');
    return confidentiality && code !== undefined && showableConfidentiality.has(code.toUpperCase());
  });
}

function codingText(concept: JsonValue | undefined): string | undefined {
  if (!isObject(concept)) return undefined;
  const coding = Array.isArray(concept.coding) ? concept.coding.find(isObject) : undefined;
  return textOf(concept.text) ?? (coding === undefined ? undefined : (textOf(coding.display) ?? textOf(coding.code)));
}

function valueOf(r: Record<string, JsonValue>): string | undefined {
  const q = r.valueQuantity;
  if (isObject(q) && typeof q.value === 'number') {
    const unit = textOf(q.unit) ?? textOf(q.code);
    return unit === undefined ? String(q.value) : `${q.value} ${unit}`;
  }
  return textOf(r.valueString) ?? codingText(r.valueCodeableConcept) ?? (typeof r.valueBoolean === 'boolean' ? String(r.valueBoolean) : undefined);
}

const dateTimeOf = (v: JsonValue | undefined): string | null => {
  const text = textOf(v);
  if (text === undefined) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

/** What the record screen shows of the bundles: only entries about this patient, none a label restricts. */
export function healthRecordOf(
  patient: HealthRecord['patient'],
  crId: string,
  observations: FhirBundle,
  requests: Record<string, JsonValue>[],
  readAt: string,
): HealthRecord {
  let withheld = 0;
  const allowed = (r: Record<string, JsonValue>) => {
    if (showable(r)) return true;
    withheld += 1;
    return false;
  };
  const shownObservations = observations.resources
    .filter((r) => r.resourceType === undefined || r.resourceType === 'Observation')
    .filter(allowed)
    .slice(0, 100)
    .map((r, i) => ({
      id: clip(textOf(r.id)) ?? `observation-${i + 1}`,
      name: clip(codingText(r.code)) ?? '—',
      value: clip(valueOf(r)),
      effectiveAt: dateTimeOf(r.effectiveDateTime ?? r.issued),
      status: clip(textOf(r.status)),
    }));
  const aboutPatient = (r: Record<string, JsonValue>) => isObject(r.subject) && textOf(r.subject.reference)?.replace(/^Patient\//, '') === crId;
  const seen = new Set<string>();
  const shownRequests = requests
    .filter(aboutPatient)
    .filter((r) => {
      const id = textOf(r.id) ?? '';
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .filter(allowed)
    .slice(0, 100)
    .map((r, i) => {
      const performer = Array.isArray(r.performer) ? r.performer.find(isObject) : undefined;
      return {
        id: clip(textOf(r.id)) ?? `request-${i + 1}`,
        status: clip(textOf(r.status)),
        requestedAt: dateTimeOf(r.authoredOn),
        performer: performer === undefined ? null : clip(textOf(performer.display) ?? textOf(performer.reference)?.replace(/^Organization\//, '')),
      };
    });
  return { patient, observations: shownObservations, moreObservations: observations.nextPageToken !== undefined, serviceRequests: shownRequests, withheld, readAt };
}
