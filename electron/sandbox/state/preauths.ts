// The payer's and the doctor's side of a preauthorization, driven by the control API: approvals
// move it along its table, and a FINALISED preauth releases its authorization to AUTHORIZED.
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { CATALOGUE } from '../world/catalogue';
import { AWAITING_DOCTOR } from './machines';
import type { PreauthRecord } from './store';

export function findPreauth(ctx: SandboxContext, idOrGuid: string): PreauthRecord {
  const byId = /^\d+$/.test(idOrGuid) ? ctx.state.preauths.get(Number(idOrGuid)) : undefined;
  const preauth = byId ?? [...ctx.state.preauths.values()].find((p) => p.guid === idOrGuid);
  if (preauth === undefined) throw fail.notFound(`No preauthorization ${idOrGuid}`);
  return preauth;
}

export function doctorApproves(ctx: SandboxContext, p: PreauthRecord): void {
  if (AWAITING_DOCTOR.includes(p.status) && p.doctor === null) {
    throw fail.rule('NO_DOCTOR_ATTACHED', 'The preauthorization has no doctor to approve it');
  }
  ctx.state.firePreauth(p, 'doctor_approval', 'INVALID_TRANSITION', p.doctor === null ? undefined : `approved by ${p.doctor.name}`);
}

export function payerApproves(ctx: SandboxContext, p: PreauthRecord, approvedAmount?: number): void {
  ctx.state.firePreauth(p, 'payer_approval', 'INVALID_TRANSITION', 'approved by the payer');
  p.approved_amount = approvedAmount ?? p.requested_amount;
  const a = ctx.state.authorizations.get(p.authorization_guid);
  if (a === undefined || a.status !== 'AUTHORIZED_PENDING_VISIT') return;
  // Every intervention of the authorization that needs a preauth must now have a finalised one.
  const ready = a.interventions
    .filter((code) => CATALOGUE.interventionByCode.get(code)?.needsPreauth === true)
    .every((code) =>
      [...ctx.state.preauths.values()].some((q) => q.authorization_guid === a.guid && q.intervention_code === code && q.status === 'FINALISED'),
    );
  if (ready) ctx.state.fireAuthorization(a, 'preauth_finalised', 'INVALID_TRANSITION', `preauthorization ${p.id} finalised`);
}

export function payerRejects(ctx: SandboxContext, p: PreauthRecord, reason: string): void {
  ctx.state.firePreauth(p, 'payer_rejection', 'INVALID_TRANSITION', reason);
}
