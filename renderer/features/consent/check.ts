// Looking the fingerprint authorization up now: when the authorization page says it is done, or
// the nurse presses "Check now". Only the exchange's answer decides; flow B's visit opens in the
// same step. A look-up already on its way is not sent twice.
import { run, useWorkflows } from '../../state/workflows';

export async function checkFingerprint(workflowId: string): Promise<void> {
  if (useWorkflows.getState().pending[workflowId] === 'consent.checkFingerprint') return;
  await run(workflowId, 'consent.checkFingerprint', { workflowId });
}
