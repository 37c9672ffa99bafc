// emergency.*: flow C — the claim created at once, its protocol and the doctor's approval, the
// patient identified later by their SMS code, the submit within 24 hours.
import type { ValidInput } from '../../contract';
import { addProtocol, createEmergency, emergencyView, identifyPatient, listProtocols, requestDoctorApproval, resendClaim, submitEmergency } from '../workflows/emergency';
import { paged } from './paging';
import { defineCommands, type StationServices } from './services';

export const emergencyCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  return defineCommands({
    'emergency.protocols': async (input) => {
      const all = await listProtocols(s.ctx, input.interventionCode);
      const needle = input.search?.trim().toLowerCase() ?? '';
      return paged(
        all.filter((p) => needle === '' || p.protocolCode.toLowerCase().includes(needle) || p.name.toLowerCase().includes(needle)),
        input.page,
        input.pageSize,
      );
    },
    'emergency.create': async (input) => {
      const c = s.ctx;
      return emergencyView(c, await createEmergency(c, input));
    },
    'emergency.resendClaim': command(['emergency'], (e, c) => resendClaim(c, e)),
    'emergency.addProtocol': command(['emergency'], (e, c) => addProtocol(c, e)),
    'emergency.requestDoctorApproval': command(['emergency'], (e, c) => requestDoctorApproval(c, e)),
    'emergency.identify': command(['emergency'], (e, c, input: ValidInput<'emergency.identify'>) => identifyPatient(c, e, input.patientRef, input.contactId)),
    'emergency.submit': command(['emergency'], (e, c, input: ValidInput<'emergency.submit'>) => submitEmergency(c, e, input)),
  });
};
