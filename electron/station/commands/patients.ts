// patient.*, benefits.*: the look-up, the patient's details and scheme, and their benefits.
import { defineCommands, type StationServices } from './services';
import { fail } from '../errors';
import { patientInHandOf } from '../workflows/patient-in-hand';
import { paged } from './paging';

export const patientCommands = (s: StationServices) =>
  defineCommands({
    'patient.lookUp': async (input) => {
      const c = s.ctx;
      const summary = await c.patients.lookUp(input);
      c.engine.audit({ action: 'patient.lookUp', outcome: 'succeeded', summary: `patient ${summary.patientRef} ${summary.covered ? 'covered' : 'not covered'}` });
      return summary;
    },
    'patient.details': async (input) => s.ctx.patients.ready(input.patientRef),
    'patient.chooseScheme': async (input) => {
      const c = s.ctx;
      const summary = c.patients.chooseScheme(input.patientRef, input.schemeId);
      c.engine.audit({ action: 'patient.chooseScheme', outcome: 'succeeded', summary: `patient ${input.patientRef}: cover chosen, set on the claim when the visit opens` });
      return summary;
    },
    'patient.inHand': async (input) => {
      const c = s.ctx;
      const wf = c.engine.get(input.workflowId);
      if (wf === undefined) fail('NOT_FOUND', 'No workflow with that id on this station.', { field: 'workflowId' });
      return patientInHandOf(wf, c.engine.isEnded(wf), (ref) => c.patients.inHand(ref), c.clock.now());
    },
    'patient.recent': async () => ({ items: s.ctx.patients.recent() }),
    'benefits.subBenefits': async (input) => paged(await s.ctx.patients.subBenefits(input.patientRef, input.careSetting, input.search), input.page, input.pageSize),
    'benefits.interventions': async (input) =>
      paged(
        await s.ctx.patients.interventions(input.patientRef, { subBenefitCode: input.subBenefitCode, scenario: input.scenario, search: input.search, background: input.background }),
        input.page,
        input.pageSize,
      ),
    'benefits.lookFor': async (input) => ({ subBenefitCodes: await s.ctx.patients.lookFor(input.patientRef, input.search) }),
    'benefits.utilization': async (input) => s.ctx.patients.utilization(input.patientRef, input.interventionCode),
  });
