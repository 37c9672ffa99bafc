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

/** The commands that start the step over go on once an earlier unknown outcome is settled. */
const startsOver = { afterReconciling: 'run' } as const;

export const consentCommands = (s: StationServices) => {
  const step = s.workflowCommand;
  return defineCommands({
    'consent.begin': async (input) => consentView(s.ctx, await beginConsent(s.ctx, input)),
    // A fingerprint request whose answer was lost is looked for and withdrawn first (its policy);
    // then the nurse's new request goes out, as she asked: a lost request never costs her a click.
    'consent.sendSms': step(consentTakingKinds, (wf, c, input: { workflowId: string; contactId?: string | undefined }) => verification.sendSms(c, requireHost(wf), wf, input.contactId), undefined, startsOver),
    'consent.confirmSms': step(consentTakingKinds, (wf, c, input: { workflowId: string; code: string }) => verification.confirmSms(c, requireHost(wf), wf, input.code)),
    'consent.startFingerprint': step(consentTakingKinds, (wf, c) => verification.startFingerprint(c, requireHost(wf), wf), undefined, startsOver),
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
