// The activity record as the nurse reads it (contract: audit.read's auditEntry): each audit record
// with the patient it concerns, masked — its workflow's patient, or the patient a look-up names in
// its summary (`patient pt_…`). Derived when read from what the core keeps (the workflows in memory,
// the workflows' and patients' tables); nothing is added to the hash-chained records themselves.
import type { AuditEntryView } from '../../contract';
import type { AuditRecord } from '../audit';
import type { Db } from '../db';
import type { AnyWorkflow } from '../workflows/types';

const PATIENT_REF = /\bpt_[A-Za-z0-9_-]{6,64}\b/;

export class ActivityView {
  private readonly workflowPatient;
  private readonly patientName;

  constructor(
    db: Db,
    private readonly workflowOf: (id: string) => AnyWorkflow | undefined,
  ) {
    this.workflowPatient = db.prepare('SELECT p.masked_name AS name FROM workflows w JOIN patients p ON p.ref = w.patient_ref WHERE w.id = ?');
    this.patientName = db.prepare('SELECT masked_name AS name FROM patients WHERE ref = ?');
  }

  entries(records: readonly AuditRecord[]): AuditEntryView[] {
    return records.map((record) => ({ ...record, maskedPatient: this.patientOf(record) }));
  }

  private patientOf(record: AuditRecord): string | null {
    if (record.workflowId !== null) {
      const wf = this.workflowOf(record.workflowId);
      if (wf !== undefined) return maskedNameOf(wf);
      return (this.workflowPatient.get(record.workflowId) as { name: string } | undefined)?.name ?? null;
    }
    const ref = PATIENT_REF.exec(record.summary)?.[0];
    return ref === undefined ? null : ((this.patientName.get(ref) as { name: string } | undefined)?.name ?? null);
  }
}

function maskedNameOf(wf: AnyWorkflow): string | null {
  if (wf.kind === 'emergency') return (wf.data.patient ?? wf.data.identifying)?.maskedName ?? null;
  return wf.data.patient.maskedName;
}
