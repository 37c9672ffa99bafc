// The pharmacy's way to a visit opened at another station of the facility. Each station keeps its
// own data, so the pharmacy asks the exchange: GET /claims/authorizations without token or guid
// lists the facility's authorizations (UAT ignores beneficiary_code, R WORKFLOWS §9), and the
// patient's are picked out here by beneficiaryCode. An AUTHORIZED one is taken as an open visit.
// The consent at the window then posts the visit, which the exchange answers with the visit
// already open (same guid, same consent token, R WORKFLOWS §9) — so the station checks, right
// before posting, that it is still listed open (else the post would open a new visit: a stray
// claim), and afterwards that the visit answered is the one listed.
import { fail } from '../errors';
import type { Ctx } from './context';

/**
 * The statuses of an authorization whose visit may be open: AUTHORIZED (R WORKFLOWS §9) and the
 * several-session AUTHORIZED_MULTISESSION (FN "Biometric authorization"). AUTHORIZED_PENDING_VISIT
 * waits for its preauthorization; SUBMITTED_CLAIM and CLOSED are past.
 */
const OPEN_STATUSES = new Set(['AUTHORIZED', 'AUTHORIZED_MULTISESSION']);

export interface OpenVisitAtExchange {
  /** secret: the authorization's guid, the visit's authorization_guid. */
  readonly guid: string;
  readonly interventions: readonly string[];
}

/** The patient's visits open at the exchange for this facility, as listed now. */
export async function openVisitsAtExchange(ctx: Ctx, patientId: string): Promise<OpenVisitAtExchange[]> {
  const rows = await ctx.session.client().consent.listFacilityAuthorizations({});
  return rows.flatMap((a) => {
    if (a.patientId !== patientId || !OPEN_STATUSES.has(a.status) || a.guid === undefined || a.interventions.length === 0) return [];
    ctx.scrubber.add(a.guid);
    return [{ guid: a.guid, interventions: a.interventions }];
  });
}

/** The open visit covering this intervention, or a plain refusal: the station never opens one for dispensing. */
export async function openVisitFor(ctx: Ctx, patientId: string, interventionCode: string): Promise<OpenVisitAtExchange> {
  const open = (await openVisitsAtExchange(ctx, patientId)).find((v) => v.interventions.includes(interventionCode));
  if (open === undefined) {
    fail('NOT_FOUND', 'SHA lists no open visit of this patient for that intervention at this facility (submitted, closed or never opened): nothing was opened. A prescription is dispensed under the visit it was written on.', {
      field: 'interventionCode',
    });
  }
  return open;
}

/**
 * Right before the consent's visit is posted: the visit it is to reach must still be listed open,
 * or the post would open a new visit (a stray claim) — refused, nothing sent.
 */
export async function requireStillOpen(ctx: Ctx, patientId: string, guid: string): Promise<void> {
  if ((await openVisitsAtExchange(ctx, patientId)).some((v) => v.guid === guid)) return;
  fail('WRONG_STATE', 'SHA no longer lists this patient’s visit as open (submitted or closed since): no visit was opened. Nothing can be dispensed under it.', { state: 'closed' });
}
