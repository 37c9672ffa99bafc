// elective.*: flow A's two phases — consent and the preauth before the visit, the visit on the day.
import type { ValidInput } from '../../contract';
import { beginElective, cancelPreauth, electiveView, refreshPreauth, resendDoctorRequest, submitPreauth } from '../workflows/elective';
import { defineCommands, type StationServices } from './services';

export const electiveCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  return defineCommands({
    'elective.begin': async (input) => electiveView(s.ctx, await beginElective(s.ctx, input)),
    'elective.submitPreauth': command(['elective'], (e, c, input: ValidInput<'elective.submitPreauth'>) =>
      submitPreauth(c, e, {
        serviceStart: input.serviceStart,
        serviceEnd: input.serviceEnd,
        requestedAmountKes: input.requestedAmountKes,
        diagnoses: input.diagnoses,
        doctor: input.doctor,
        notificationEmail: input.notificationEmail,
        clinicalNotes: input.clinicalNotes ?? null,
      }, (input.documents ?? []).map((d) => ({ documentType: d.documentType, title: d.title, fileName: d.fileName, contentType: d.contentType, data: Buffer.from(d.dataBase64, 'base64') }))),
    ),
    'elective.resendDoctorRequest': command(['elective'], (e, c) => resendDoctorRequest(c, e)),
    'elective.refreshPreauth': command(['elective'], (e, c) => refreshPreauth(c, e)),
    'elective.cancelPreauth': command(['elective'], (e, c, input: ValidInput<'elective.cancelPreauth'>) => cancelPreauth(c, e, input.reason)),
  });
};
