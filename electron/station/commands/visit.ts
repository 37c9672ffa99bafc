// visit.*: the visit opened from a consent or a finalised elective, billed, previewed.
import type { ValidInput } from '../../contract';
import { fail } from '../errors';
import type { Ctx } from '../workflows/context';
import { openElectiveVisit } from '../workflows/elective';
import type { ConsentWorkflow, VisitWorkflow } from '../workflows/types';
import { addLine, attachDoctor, openVisit, previewVisit, removeLine, visitView } from '../workflows/visit';
import { addService, restoreService, retireService } from '../workflows/services-on-visit';
import { defineCommands, type StationServices } from './services';

/**
 * The visit opens itself once consent is in: this opens it again after a refusal, or answers the
 * visit already open (with the doctor attached, when one is named and the visit has none yet).
 */
async function openFromConsent(c: Ctx, source: ConsentWorkflow, doctor: Parameters<typeof openVisit>[2]): Promise<VisitWorkflow> {
  const opened = source.data.visitWorkflowId === null ? undefined : c.engine.get(source.data.visitWorkflowId);
  if (source.state === 'visit-opened' && opened?.kind === 'visit') {
    if (doctor === null || opened.data.doctor !== null) return opened;
    return c.engine.lock(opened.id, async () => {
      await attachDoctor(c, opened, doctor);
      return opened;
    });
  }
  if (source.state !== 'verified') fail('WRONG_STATE', 'Take the patient’s consent first.', { state: source.state });
  return openVisit(c, source, doctor);
}

export const visitCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  return defineCommands({
    'visit.open': command(
      ['consent', 'elective'],
      async (source, c, input: ValidInput<'visit.open'>) => {
        const doctor = input.doctor ?? null;
        return source.kind === 'consent' ? openFromConsent(c, source, doctor) : openElectiveVisit(c, source, doctor);
      },
      (_source, _c, visit) => visitView(visit!),
      // Opening looks before it acts: a visit already open is answered, not opened again.
      { afterReconciling: 'run' },
    ),
    'visit.addLine': command(['visit'], async (visit, c, input: ValidInput<'visit.addLine'>) => {
      const { workflowId: _id, ...line } = input;
      await addLine(c, visit, line);
    }),
    'visit.removeLine': command(['visit'], (visit, c, input: ValidInput<'visit.removeLine'>) => removeLine(c, visit, input.lineId)),
    'visit.attachDoctor': command(['visit'], (visit, c, input: ValidInput<'visit.attachDoctor'>) => attachDoctor(c, visit, input.doctor)),
    'visit.preview': command(['visit'], (visit, c) => previewVisit(c, visit), (_visit, _c, preview) => preview!, { afterReconciling: 'run' }),
    'visit.addService': command(['visit'], (visit, c, input: ValidInput<'visit.addService'>) => addService(c, visit, input.interventionCode)),
    'visit.retireService': command(['visit'], (visit, c, input: ValidInput<'visit.retireService'>) => retireService(c, visit, input.interventionCode)),
    'visit.restoreService': command(['visit'], (visit, c, input: ValidInput<'visit.restoreService'>) => restoreService(c, visit, input.interventionCode)),
  });
};
