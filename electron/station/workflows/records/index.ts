// Every sealed record of the workflows, by kind, each read through the schema of the version it was
// kept in and upgraded to the current one (../../versioned.ts). The kinds table (one module per kind)
// is where each kind's history belongs once it exists; until then, this table.
import type { WorkflowKind } from '../../../contract';
import { envelopeOf, unwrap, type ReadOutcome, type RecordHistory } from '../../versioned';
import type { AnyWorkflow, WorkflowOf } from '../types';
import { consentRecord } from './consent';
import { dischargeRecord } from './discharge';
import { electiveRecord } from './elective';
import { emergencyRecord } from './emergency';
import { visitRecord } from './visit';

export { callRecord, type SealedCall } from './call';

export const workflowRecords: { readonly [K in WorkflowKind]: RecordHistory<WorkflowOf<K>> } = {
  consent: consentRecord,
  visit: visitRecord,
  discharge: dischargeRecord,
  elective: electiveRecord,
  emergency: emergencyRecord,
};

const kinds = new Set<string>(Object.keys(workflowRecords));
const isKind = (kind: string): kind is WorkflowKind => kinds.has(kind);

/** A workflow row's sealed payload, read as the kind its row names. */
export function readWorkflow(kind: string, payload: unknown): ReadOutcome<AnyWorkflow> {
  if (!isKind(kind)) return { ok: false, reason: 'newer', detail: `a kind of workflow this station does not know (${kind.slice(0, 40)})` };
  const { version, record } = unwrap(payload);
  return workflowRecords[kind].read(version, record);
}

/** The workflow as it is kept: checked against its kind's current shape, with that version beside it. */
export function workflowToKeep(wf: AnyWorkflow): { version: number; record: unknown } {
  const history: RecordHistory<AnyWorkflow> = workflowRecords[wf.kind];
  return envelopeOf(history.current, history.check(JSON.parse(JSON.stringify(wf))));
}
