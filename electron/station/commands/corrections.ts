// Corrections (issue 14): a visit's claim closed, corrected or switched; an emergency claim given a
// further protocol or another doctor; a preauthorization's diagnosis removed. Each on its workflow,
// through workflowCommand (found, locked, an unknown outcome settled first).
import type { ValidInput } from '../../contract';
import { addDiagnosis, closeVisit, editLine, removeDiagnosis, removePreauthDiagnosis, switchIntervention } from '../workflows/corrections';
import { changePreauthDoctor } from '../workflows/elective';
import { addAnotherProtocol, changeDoctor } from '../workflows/emergency';
import { defineCommands, type StationServices } from './services';

export const correctionCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  return defineCommands({
    'visit.close': command(['visit'], (visit, c, input: ValidInput<'visit.close'>) => closeVisit(c, visit, input.reason, input.explanation)),
    'visit.addDiagnosis': command(['visit'], (visit, c, input: ValidInput<'visit.addDiagnosis'>) => addDiagnosis(c, visit, input.code, input.interventionCode)),
    'visit.removeDiagnosis': command(['visit'], (visit, c, input: ValidInput<'visit.removeDiagnosis'>) => removeDiagnosis(c, visit, input.code, input.interventionCode)),
    'visit.editLine': command(['visit'], (visit, c, input: ValidInput<'visit.editLine'>) =>
      editLine(c, visit, input.lineId, { quantity: input.quantity, unitPriceKes: input.unitPriceKes }),
    ),
    'visit.switchIntervention': command(['visit'], (visit, c, input: ValidInput<'visit.switchIntervention'>) =>
      switchIntervention(c, visit, { interventionCode: input.interventionCode, keepLines: input.keepLines, billFrom: input.billFrom, billTo: input.billTo }),
    ),
    'emergency.addAnotherProtocol': command(['emergency'], (e, c, input: ValidInput<'emergency.addAnotherProtocol'>) => addAnotherProtocol(c, e, input.protocolCode)),
    'emergency.changeDoctor': command(['emergency'], (e, c, input: ValidInput<'emergency.changeDoctor'>) => changeDoctor(c, e, input.doctor)),
    'elective.changeDoctor': command(['elective'], (e, c, input: ValidInput<'elective.changeDoctor'>) => changePreauthDoctor(c, e, input.doctor)),
    'elective.removeDiagnosis': command(['elective'], (e, c, input: ValidInput<'elective.removeDiagnosis'>) => removePreauthDiagnosis(c, e, input.code)),
  });
};
