// The sandbox control API (loopback only, no token): what ../shared/design/contracts.md fixes, plus
// the documented extensions (README "Control API").
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { faultRequest, type FaultRule } from '../faults';
import { presentFingerprint } from '../state/consent';
import { PRESCRIBER_REVIEWS, PRESCRIPTION_STATUSES } from '../state/store';
import { CLAIM_MACHINE, PAYER_CLAIM_EVENTS, PAYER_PREAUTH_EVENTS, PREAUTH_MACHINE, eventTo, type ClaimState, type PreauthStatus } from '../state/machines';
import { doctorApproves, findPreauth, payerApproves, payerRejects } from '../state/preauths';
import { parse } from '../validation';
import { authorizationView, claimPreview, preauthView } from '../views';
import { claimDocumentTypes } from '../../vocabulary';
import { CATALOGUE } from '../world/catalogue';
import { API_CLIENTS, FACILITIES } from '../world/facilities';
import { enrolledFingers } from '../world/fingerprints';
import { PATIENTS, patientByCrId } from '../world/patients';
import { PROFESSIONALS, professionalName } from '../world/professionals';

/** A template as base64; matching compares the decoded bytes. */
export const templateField = z
  .string()
  .trim()
  .min(1, 'a base64 template is required')
  .max(64 * 1024)
  .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'must be base64');

function faultView(rule: FaultRule) {
  return {
    id: rule.id,
    routes: rule.routes?.map((r) => `${r.method} ${r.path}${r.query === null ? '' : `?${new URLSearchParams(r.query).toString()}`}`) ?? null,
    latency_ms: rule.latency_ms,
    fail_rate: rule.fail_rate,
    status: rule.status,
    remaining: rule.remaining,
    reset_connection: rule.reset_connection,
    lose_answer: rule.lose_answer,
    injected: rule.injected,
    profile: rule.profile,
    seed: rule.seed,
  };
}

const CLAIM_STATES = Object.keys(CLAIM_MACHINE) as [ClaimState, ...ClaimState[]];

const smsQuery = z.object({ patient_id: z.string().trim().optional(), doctor_id: z.string().trim().optional() });
const authorizationsQuery = z.object({ patient_id: z.string().trim().optional(), status: z.string().trim().toUpperCase().optional() });
const fingerprintRequest = z.object({ template: templateField });
const payerApproval = z.object({ approved_amount: z.number().positive().optional() });
const payerRejection = z.object({ reason: z.string().trim().max(500).default('rejected by the payer') });
const clockAdvance = z.object({ advance_ms: z.number().int('whole milliseconds').min(0, 'the clock only moves forward').max(400 * 24 * 3600 * 1000) });
const workflowStateRequest = z.object({
  to: z.enum(CLAIM_STATES),
  // With DRAFT_RESUBMIT_DOCUMENTS: the document types the payer asks for (default: the claim's interventions' applicable types not on it yet).
  documents: z.array(z.enum(claimDocumentTypes)).min(1).max(31).optional(),
});
/** The payer's side of a prescription: its status and the prescriber's review (the words are ours). */
const prescriptionReviewRequest = z
  .object({
    status: z.enum(PRESCRIPTION_STATUSES).optional(),
    // Ours, and no source lists the live service's words: one outside our list may be given, to see how a client takes a word it does not know.
    doctor_review_status: z.union([z.enum(PRESCRIBER_REVIEWS), z.string().regex(/^[A-Z][A-Z0-9_]{1,59}$/, 'an upper-case word such as ON_HOLD_PHARMACIST')]).optional(),
  })
  .refine((v) => v.status !== undefined || v.doctor_review_status !== undefined, { message: 'give status, doctor_review_status or both', path: ['status'] });
/** The payer's side of an authorization: only AUTHORIZED → AUTHORIZED_MULTISESSION is the payer's to make. */
const authorizationStatusRequest = z.object({ to: z.literal('AUTHORIZED_MULTISESSION') });
const PREAUTH_STATES = Object.keys(PREAUTH_MACHINE) as [PreauthStatus, ...PreauthStatus[]];
/** The payer's or the doctor's side of a preauth; `note` is what the payer writes to the facility (a clarification asked for). */
const preauthStatusRequest = z.object({ to: z.enum(PREAUTH_STATES), note: z.string().trim().min(1).max(2000).optional() });

export function controlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/sms', async (request) => {
    const query = parse(smsQuery, request.query, 'query');
    return ctx.state.sms.filter(
      (m) =>
        (query.patient_id === undefined || m.patient_id === query.patient_id) &&
        (query.doctor_id === undefined || m.doctor_id === query.doctor_id || m.doctor_national_id === query.doctor_id),
    );
  });

  app.get<{ Params: { cr: string } }>('/patients/:cr/fingerprints', async (request) => {
    const patient = patientByCrId(request.params.cr);
    if (patient === undefined) throw fail.notFound(`No patient ${request.params.cr}`);
    return enrolledFingers(patient);
  });

  // Ours: the facility's authorizations as SHA holds them, newest first, so a trainer or a test can
  // find the request a patient is to put a finger to (the station never shows its guid).
  app.get('/authorizations', async (request) => {
    const query = parse(authorizationsQuery, request.query, 'query');
    return [...ctx.state.authorizations.values()]
      .filter((a) => (query.patient_id === undefined || a.patient_id === query.patient_id) && (query.status === undefined || a.status === query.status))
      .sort((a, b) => b.created_at - a.created_at)
      .map((a) => ({ guid: a.guid, token: a.token, status: a.status, patient_id: a.patient_id, method: a.method, phase: a.phase, interventions: a.interventions, created_at: iso(a.created_at) }));
  });

  app.post<{ Params: { guid: string } }>('/authorizations/:guid/fingerprint', async (request) => {
    const body = parse(fingerprintRequest, request.body);
    const a = ctx.state.authorizations.get(request.params.guid);
    if (a === undefined) throw fail.notFound(`No authorization ${request.params.guid}`);
    const outcome = presentFingerprint(ctx, a, Buffer.from(body.template, 'base64'));
    return { guid: a.guid, ...outcome, authorization: authorizationView(a) };
  });

  app.post<{ Params: { id: string } }>('/preauths/:id/doctor-approval', async (request) => {
    const p = findPreauth(ctx, request.params.id);
    doctorApproves(ctx, p);
    return preauthView(p);
  });

  app.post<{ Params: { id: string } }>('/preauths/:id/payer-approval', async (request) => {
    const body = parse(payerApproval, request.body);
    const p = findPreauth(ctx, request.params.id);
    payerApproves(ctx, p, body.approved_amount);
    return preauthView(p);
  });

  app.post<{ Params: { id: string } }>('/preauths/:id/payer-rejection', async (request) => {
    const body = parse(payerRejection, request.body);
    const p = findPreauth(ctx, request.params.id);
    payerRejects(ctx, p, body.reason);
    return preauthView(p);
  });

  app.post<{ Params: { guid: string } }>('/authorizations/:guid/status', async (request) => {
    const body = parse(authorizationStatusRequest, request.body);
    const a = ctx.state.authorizations.get(request.params.guid);
    if (a === undefined) throw fail.notFound(`No authorization ${request.params.guid}`);
    ctx.state.fireAuthorization(a, 'multisession', 'INVALID_TRANSITION', `control: ${body.to}`);
    return authorizationView(a);
  });

  app.post<{ Params: { id: string } }>('/preauths/:id/status', async (request) => {
    const body = parse(preauthStatusRequest, request.body);
    const p = findPreauth(ctx, request.params.id);
    const event = eventTo(PREAUTH_MACHINE, p.status, body.to, PAYER_PREAUTH_EVENTS);
    if (event === undefined) {
      throw fail.conflict('INVALID_TRANSITION', `Neither the doctor nor the payer moves a preauthorization from ${p.status} to ${body.to}`, [{ from: p.status, to: body.to }]);
    }
    if (event === 'doctor_approval') doctorApproves(ctx, p);
    else if (event === 'payer_approval') payerApproves(ctx, p);
    else ctx.state.firePreauth(p, event, 'INVALID_TRANSITION', body.note ?? `control: ${event}`);
    if (body.note !== undefined) p.notes.push({ id: p.notes.length + 1, note: body.note, source: 'PAYER', at: ctx.now() });
    return preauthView(p);
  });

  app.get('/clock', async () => ({ now: iso(ctx.now()), offset_ms: ctx.clock.offsetMs }));

  app.post('/clock', async (request) => {
    const body = parse(clockAdvance, request.body);
    ctx.clock.advance(body.advance_ms);
    const expired = ctx.sweep();
    return { now: iso(ctx.now()), offset_ms: ctx.clock.offsetMs, expired };
  });

  app.get('/faults', async () => {
    const { global, routes, recent } = ctx.faults.list();
    return { global: faultView(global), routes: routes.map(faultView), recent };
  });

  app.post('/faults', async (request) => {
    const rule = ctx.faults.apply(parse(faultRequest, request.body));
    return faultView(rule);
  });

  app.delete('/faults', async (_request, reply) => {
    ctx.faults.clear();
    return reply.code(204).send();
  });

  app.get('/events', async () => ctx.callbacks.list());

  app.get('/transitions', async () => ctx.transitions.map((t) => ({ ...t, at: iso(t.at) })));

  app.post('/reset', async () => {
    ctx.reset();
    return { message: 'Sandbox reset to the seeded demo world', now: iso(ctx.now()) };
  });

  const decideWhitelist = (guid: string, status: 'APPROVED' | 'REJECTED') => {
    const record = ctx.state.whitelistRequests.get(guid);
    if (record === undefined) throw fail.notFound(`No OTP whitelist request ${guid}`);
    if (record.status !== 'PENDING') throw fail.conflict('INVALID_TRANSITION', `The request is already ${record.status}`);
    record.status = status;
    record.decided_at = ctx.now();
    if (status === 'APPROVED') ctx.state.whitelisted.add(record.beneficiary_cr_id);
    return { guid: record.guid, status: record.status, beneficiary_cr_id: record.beneficiary_cr_id };
  };
  app.post<{ Params: { guid: string } }>('/otp-whitelists/:guid/approval', async (request) => decideWhitelist(request.params.guid, 'APPROVED'));
  app.post<{ Params: { guid: string } }>('/otp-whitelists/:guid/rejection', async (request) => decideWhitelist(request.params.guid, 'REJECTED'));

  app.post<{ Params: { token: string } }>('/claims/:token/workflow-state', async (request) => {
    const body = parse(workflowStateRequest, request.body);
    const claim = ctx.state.claims.get(request.params.token);
    if (claim === undefined) throw fail.notFound(`No claim with consent_token ${request.params.token}`);
    const event = eventTo(CLAIM_MACHINE, claim.workflow_state, body.to, PAYER_CLAIM_EVENTS);
    if (event === undefined) {
      throw fail.conflict('INVALID_TRANSITION', `The payer cannot move a claim from ${claim.workflow_state} to ${body.to}`, [
        { from: claim.workflow_state, to: body.to },
      ]);
    }
    if (body.documents !== undefined && event !== 'request_documents') throw fail.field('documents', 'only when the payer returns the claim for documents (to DRAFT_RESUBMIT_DOCUMENTS)');
    ctx.state.fireClaim(claim, event, 'INVALID_TRANSITION', `payer: ${event}`);
    if (event === 'request_documents') {
      const applicable = claim.interventions.flatMap((code) => CATALOGUE.interventionByCode.get(code)?.applicableDocumentTypes ?? []);
      claim.requested_documents = body.documents ?? [...new Set(applicable)].filter((type) => !claim.attachments.some((a) => a.document_type === type));
    }
    return claimPreview(claim);
  });

  // Ours: the prescriptions SHA holds, newest first, by the code each create answered.
  app.get('/prescriptions', async () =>
    [...ctx.state.prescriptions]
      .sort((a, b) => b.created_at - a.created_at || b.id - a.id)
      .map((p) => ({ code: p.code, consent_token: p.consent_token, intervention_code: p.intervention_code, status: p.status, doctor_review_status: p.doctor_review_status, created_at: iso(p.created_at) })),
  );

  app.post<{ Params: { code: string } }>('/prescriptions/:code/review', async (request) => {
    const body = parse(prescriptionReviewRequest, request.body);
    const record = ctx.state.prescriptions.find((p) => p.code === request.params.code);
    if (record === undefined) throw fail.notFound(`No prescription ${request.params.code}`);
    if (body.status !== undefined) record.status = body.status;
    if (body.doctor_review_status !== undefined) record.doctor_review_status = body.doctor_review_status;
    return { code: record.code, status: record.status, doctor_review_status: record.doctor_review_status };
  });

  app.get('/world', async () => ({
    facilities: FACILITIES.map((f) => ({
      code: f.code,
      name: f.name,
      level: f.level,
      biometrics_enforced: f.biometricsEnforced,
      client_id: API_CLIENTS.find((c) => c.facilityCode === f.code)?.clientId ?? null,
      client_secret: API_CLIENTS.find((c) => c.facilityCode === f.code)?.clientSecret ?? null,
    })),
    service_accounts: API_CLIENTS.filter((c) => c.facilityCode === null).map((c) => ({ client_id: c.clientId, client_secret: c.clientSecret })),
    patients: PATIENTS.map((p) => ({
      identification_number: p.nationalId,
      identification_type: 'National ID',
      cr_id: p.crId,
      full_name: p.fullName,
      situation: p.situation,
      fingers: p.fingers,
    })),
    not_found: [{ identification_number: '99999999', identification_type: 'National ID' }],
    professionals: PROFESSIONALS.map((p) => ({
      name: professionalName(p),
      regulator: p.regulator,
      registration_number: p.registrationNumber,
      national_id: p.nationalId,
      cadre: p.cadre,
    })),
  }));

}
