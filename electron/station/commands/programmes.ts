// facilities.*, beds.*, pomsf.*, shr.*: issue 15's reads. None changes anything at the exchange, so
// none is journaled; the record read is audited (who read a patient's record, and how much was
// withheld), the others are not.
import { fail } from '../errors';
import {
  bedOccupancyOf,
  healthRecordOf,
  policyYearOf,
  pomsfBalanceOf,
  pomsfTariffsOf,
  searchFacilities,
} from '../programmes';
import type { Ctx } from '../workflows/context';
import type { VisitWorkflow } from '../workflows/types';
import { defineCommands, type StationServices } from './services';

function facilityCodeOf(c: Ctx): string {
  const code = c.settings.values.facilityCode;
  if (code === null) fail('SETTINGS_MISSING', 'Fill in the facility’s code first.', { issues: [{ field: 'facilityCode', message: 'is missing' }] });
  return code;
}

async function readRecord(c: Ctx, visit: VisitWorkflow, practitionerId: string) {
  if (visit.data.consentToken === null) fail('WRONG_STATE', 'The visit has no consent yet: the record is read with it.', { state: visit.state });
  const facilityCode = facilityCodeOf(c);
  const client = c.session.client();
  const crId = visit.data.patient.patientId;
  // Both directions of this facility's referrals (our inbox and our outbox), then this patient's.
  const [observations, addressed, raised] = await Promise.all([
    client.shr.observations({ subject: crId, consent_token: visit.data.consentToken, puid: practitionerId }),
    client.shr.serviceRequests({ performer_organization: facilityCode }),
    client.shr.serviceRequests({ requester_organization: facilityCode }),
  ]);
  const record = healthRecordOf(
    { patientRef: visit.data.patient.ref, maskedName: visit.data.patient.maskedName },
    crId,
    observations,
    [...addressed.resources, ...raised.resources],
    c.nowIso(),
  );
  c.engine.audit({
    action: 'shr.read',
    workflowId: visit.id,
    workflowKind: 'visit',
    outcome: 'succeeded',
    summary: `shared health record read: ${record.observations.length} observations, ${record.serviceRequests.length} service requests, ${record.withheld} withheld by their security labels`,
  });
  return record;
}

export const programmeCommands = (s: StationServices) =>
  defineCommands({
    'facilities.search': async (input) => ({ items: (await searchFacilities(s.ctx, input.search)).slice(0, 50) }),
    'beds.occupancy': async () => {
      const c = s.ctx;
      return bedOccupancyOf(await c.session.client().lookups.bedOccupancy({ facility_code: facilityCodeOf(c) }), c.nowIso());
    },
    'pomsf.balance': async (input) => {
      const c = s.ctx;
      const policyYear = policyYearOf(c.clock.now());
      const balance = await c.session.client().eligibility.pomsfBalance({ patient_id: c.patients.facts(input.patientRef).patientId, policy_year: policyYear });
      return pomsfBalanceOf(balance, policyYear);
    },
    'pomsf.tariffs': async (input) => {
      const c = s.ctx;
      const answer = await c.session.client().eligibility.resolvePmfTariffs({
        fr_code: facilityCodeOf(c),
        intervention_codes: input.interventionCodes,
        // A screen's registration number is read as registration_number (workflows/practitioner.ts).
        hcw_identifier_type: 'registration_number',
        hcw_identifier: input.doctor.registrationNumber,
        hcw_regulator: input.doctor.regulationBody,
      });
      return pomsfTariffsOf(answer);
    },
    'shr.record': s.workflowCommand(
      ['visit'],
      (visit, c, input: { workflowId: string; practitionerId: string }) => readRecord(c, visit, input.practitionerId),
      (_visit, _c, record) => record ?? fail('WRONG_STATE', 'Read the record again.'),
      { afterReconciling: 'run' },
    ),
  });
