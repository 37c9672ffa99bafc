// discharge.*: the visit end begun on an open visit, then the inpatient discharge or the submit.
import type { ValidInput } from '../../contract';
import { beginDischarge, closeVisit, dischargeView, requireClaimReadyToEnd } from '../workflows/discharge';
import { fail } from '../errors';
import { madeInvoice } from '../workflows/made-papers';
import type { VisitWorkflow } from '../workflows/types';
import { defineCommands, type StationServices } from './services';

export const dischargeCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  return defineCommands({
    // On the visit: the answer is the new visit-end workflow.
    'discharge.begin': command(
      ['visit'],
      async (visit, c) => {
        // Nothing SHA would refuse the claim for is left to find after the patient's code or finger.
        await requireClaimReadyToEnd(c, visit);
        return beginDischarge(c, visit);
      },
      (visit, c, discharge) => {
        const begun = discharge ?? (visit.data.dischargeWorkflowId === null ? undefined : c.engine.get(visit.data.dischargeWorkflowId));
        return begun?.kind === 'discharge' ? dischargeView(c, begun) : s.viewOf(visit);
      },
    ),
    'discharge.dischargeInpatient': command(['discharge'], (d, c, input: ValidInput<'discharge.dischargeInpatient'>) => closeVisit(c, d, 'discharge', input)),
    'discharge.submit': command(['discharge'], (d, c, input: ValidInput<'discharge.submit'>) => closeVisit(c, d, 'submit', input)),
    'discharge.madeInvoice': command(
      ['discharge'],
      async (d, c) => {
        const visit = c.engine.get(d.data.visitWorkflowId);
        if (visit?.kind !== 'visit') return fail('NOT_FOUND', 'The visit of this visit end is not on this station.', { field: 'workflowId' });
        return madeInvoice(c, visit as VisitWorkflow);
      },
      (_d, _c, made) => {
        const { document, lineCount, totalKes, onClaim } = made!;
        return { title: document.title, fileName: document.fileName, pages: document.pages, lineCount: lineCount ?? 1, totalKes: totalKes ?? 0, onClaim, dataBase64: Buffer.from(document.bytes).toString('base64') };
      },
      { afterReconciling: 'run' },
    ),
  });
};
