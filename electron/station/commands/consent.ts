// consent.*: flow B's consent begun, and the verification commands on
// whichever workflow is taking consent (consent, elective, discharge, emergency identification).
import type { ValidInput } from '../../contract';
import { beginConsent, consentView } from '../workflows/consent';
import { cancelDischarge } from '../workflows/discharge';
import type { AnyWorkflow } from '../workflows/types';
import * as verification from '../workflows/verification';
import { consentTakingKinds, defineCommands, requireHost, type StationServices } from './services';

function patientIdOf(wf: AnyWorkflow): string | null {
  if (wf.kind === 'emergency') return wf.data.identifying?.patientId ?? wf.data.patient?.patientId ?? null;
  return wf.data.patient.patientId;
}

export const consentCommands = (s: StationServices) => {
  const step = s.workflowCommand;
  return defineCommands({
    'consent.begin': async (input) => consentView(s.ctx, await beginConsent(s.ctx, input)),
    'consent.sendSms': step(consentTakingKinds, (wf, c, input: { workflowId: string; contactId?: string | undefined }) => verification.sendSms(c, requireHost(wf), wf, input.contactId)),
    'consent.confirmSms': step(consentTakingKinds, (wf, c, input: { workflowId: string; code: string }) => verification.confirmSms(c, requireHost(wf), wf, input.code)),
    'consent.startFingerprint': step(consentTakingKinds, (wf, c) => verification.startFingerprint(c, requireHost(wf), wf)),
    'consent.checkFingerprint': step(consentTakingKinds, (wf, c) => verification.checkFingerprint(c, requireHost(wf), wf)),
    'consent.cancel': step(consentTakingKinds, async (wf, c) => {
      if (wf.kind === 'consent' && wf.state === 'verified') c.engine.transition(wf, 'cancel', 'withdrawn by the nurse');
      else if (wf.kind === 'discharge' && wf.state === 'ready') cancelDischarge(c, wf);
      else await verification.cancel(c, requireHost(wf), wf);
    }),
    'consent.retry': step(consentTakingKinds, (wf, c) => verification.retry(c, requireHost(wf), wf)),
    'consent.requestWhitelist': step(consentTakingKinds, (wf, c, input: ValidInput<'consent.requestWhitelist'>) =>
      verification.requestWhitelist(c, requireHost(wf), wf, patientIdOf(wf), input.reasonType, input.reasonText, input.document),
    ),
  });
};
