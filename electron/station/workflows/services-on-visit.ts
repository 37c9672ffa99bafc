// Several services on one visit (issue 22): an inpatient stay takes a laboratory test or imaging
// beside the ward's own service on the same claim and the same consent. SHA adds, retires and
// restores a claim's interventions (POST /claims/interventions, …/retire, …/restore); retiring
// deletes that service's billing lines, restoring brings the service back without them. Each is one
// journaled call on the open visit: done, refused (on the view, thrown) or unknown (the claim
// preview settles it before anything is sent again).
import { fail, StationFailure } from '../errors';
import type { Ctx } from './context';
import { journal } from './journal';
import type { VisitWorkflow } from './types';
import { billingCall, refreshFromPreview, requireOpen, servicesOf } from './visit';

function setActive(wf: VisitWorkflow, code: string, active: boolean): void {
  wf.data.services = servicesOf(wf).map((s) => (s.code === code ? { ...s, active } : s));
}

/** SHA answered that the service is already on the claim: an earlier add whose answer was lost, or another station's. */
function alreadyOnClaim(error: unknown): boolean {
  return error instanceof StationFailure && error.error.details?.exchangeCode === 'INTERVENTION_ALREADY_ON_CLAIM';
}

/**
 * Adds one of the patient's covered services to the open visit. A service taken off earlier is
 * restored instead (SHA's own call for it). One SHA says is on the claim already is taken as
 * added, once the preview shows it there.
 */
export async function addService(ctx: Ctx, wf: VisitWorkflow, code: string): Promise<void> {
  const consentToken = requireOpen(wf);
  const onVisit = servicesOf(wf).find((s) => s.code === code);
  if (onVisit?.active === true) fail('VALIDATION', `${onVisit.name} is on this visit already.`, { field: 'interventionCode' });
  if (onVisit !== undefined) {
    await restoreService(ctx, wf, code);
    return;
  }
  const intervention = await ctx.patients.intervention(wf.data.patient.ref, code);
  const request = { consent_token: consentToken, intervention_code: intervention.code };
  try {
    await billingCall(ctx, wf, journal.addIntervention, request, () => ctx.session.client().claims.addIntervention(request), () => {
      wf.data.services = [...servicesOf(wf), { code: intervention.code, name: intervention.name, scenario: intervention.scenario, active: true }];
    });
  } catch (error) {
    if (!alreadyOnClaim(error)) throw error;
    await refreshFromPreview(ctx, wf);
    if (servicesOf(wf).find((s) => s.code === code)?.active !== true) throw error;
    ctx.engine.commit(() => {
      wf.data.services = servicesOf(wf).map((s) => (s.code === code ? { ...s, name: intervention.name, scenario: intervention.scenario } : s));
      ctx.engine.setError(wf, null);
    });
    return;
  }
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}

/**
 * Takes a service off the visit. SHA deletes its billing lines (the screen says so before the nurse
 * confirms); the last service standing is not taken off, since a claim needs one: the visit is
 * closed instead.
 */
export async function retireService(ctx: Ctx, wf: VisitWorkflow, code: string): Promise<void> {
  const consentToken = requireOpen(wf);
  const services = servicesOf(wf);
  const service = services.find((s) => s.code === code);
  if (service === undefined) fail('NOT_FOUND', 'That service is not on this visit.', { field: 'interventionCode' });
  if (!service.active) fail('WRONG_STATE', `${service.name} was taken off this visit already.`, { state: 'retired' });
  if (!services.some((s) => s.active && s.code !== code)) {
    fail('WRONG_STATE', 'This is the visit’s only service: a claim needs one. Close the visit instead if no service was given.', { state: 'open' });
  }
  const request = { consent_token: consentToken, intervention_code: code };
  await billingCall(ctx, wf, journal.retireIntervention, request, () => ctx.session.client().claims.retireIntervention(request), () => {
    setActive(wf, code, false);
    wf.data.lines = wf.data.lines.filter((l) => l.interventionCode !== code);
  });
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}

/** Puts a retired service back on the visit; its deleted lines do not come back. */
export async function restoreService(ctx: Ctx, wf: VisitWorkflow, code: string): Promise<void> {
  const consentToken = requireOpen(wf);
  const service = servicesOf(wf).find((s) => s.code === code);
  if (service === undefined) fail('NOT_FOUND', 'That service is not on this visit.', { field: 'interventionCode' });
  if (service.active) fail('WRONG_STATE', `${service.name} is on this visit already.`, { state: 'active' });
  const request = { consent_token: consentToken, intervention_code: code };
  await billingCall(ctx, wf, journal.restoreIntervention, request, () => ctx.session.client().claims.restoreIntervention(request), () => {
    setActive(wf, code, true);
  });
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}
