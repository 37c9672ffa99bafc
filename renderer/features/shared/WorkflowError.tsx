// What last went wrong on a workflow: the command that failed here, with "Try again" when its code
// allows, or else the error the station core recorded on the view.
import type { WorkflowView } from '../../../electron/contract';
import { retry, useWorkflows } from '../../state/workflows';
import { ErrorNotice } from '../../ui/Notice';

export function WorkflowError({ view }: { readonly view: WorkflowView }) {
  const workflowId = view.workflowId;
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const pending = useWorkflows((s) => s.pending[workflowId]);
  if (failure !== undefined) return <ErrorNotice error={failure.error} onRetry={() => void retry(workflowId)} retryBusy={pending !== undefined} />;
  return view.lastError === null ? null : <ErrorNotice error={view.lastError} />;
}
