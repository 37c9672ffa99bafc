// discharge.*: the visit end begun on an open visit, then the inpatient discharge or the submit.
import type { ValidInput } from '../../contract';
import { beginDischarge, closeVisit, dischargeView } from '../workflows/discharge';
import { defineCommands, type StationServices } from './services';

export const dischargeCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  return defineCommands({
    // On the visit: the answer is the new visit-end workflow.
    'discharge.begin': command(
      ['visit'],
      async (visit, c) => beginDischarge(c, visit),
      (visit, c, discharge) => {
        const begun = discharge ?? (visit.data.dischargeWorkflowId === null ? undefined : c.engine.get(visit.data.dischargeWorkflowId));
        return begun?.kind === 'discharge' ? dischargeView(c, begun) : s.viewOf(visit);
      },
    ),
    'discharge.dischargeInpatient': command(['discharge'], (d, c, input: ValidInput<'discharge.dischargeInpatient'>) => closeVisit(c, d, 'discharge', input)),
    'discharge.submit': command(['discharge'], (d, c, input: ValidInput<'discharge.submit'>) => closeVisit(c, d, 'submit', input)),
  });
};
