// The preauth types through the client and the sandbox: the contract's per-type details turned by
// the station into the flat fields the peers send, accepted by the sandbox without requiring any,
// kept and shown back by the look-up (`requestExtraData`, read as `requestDetails`); and the new
// request after a rejection, as AE's resubmit sends it: a full create for the same consent and
// intervention.
import { describe, expect, it } from 'vitest';
import type { PreauthDetails } from '../../../electron/contract';
import { preauthDetailRequest } from '../../../electron/station/preauth-details';
import { NID, PREAUTH_DOCTOR, patientId, readOtp, useWorld } from './harness';

const { w, codes } = useWorld();
const atDay = (day: string) => `${day}T00:00:00+03:00`;

/** Flow A's pre-visit consent by SMS code (a member whitelisted for it): the token a preauth is made with. */
async function previsitConsent(): Promise<string> {
  const patient = await patientId(w.hospital, NID.whitelisted);
  await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.elective.code] });
  const consent = await w.hospital.consent.authorizeOtp({
    patient_id: patient,
    otp: await readOtp(w.raw, { patient_id: patient }),
    interventions: [codes.elective.code],
    service_type: 'INPATIENT',
  });
  return consent.token ?? '';
}

function create(token: string, details: PreauthDetails) {
  return w.hospital.preauth.create({
    consent_token: token,
    intervention_code: codes.elective.code,
    service_start: '2030-01-15T00:00:00+03:00',
    service_end: '2030-01-17T23:59:59+03:00',
    items: [{ unit_price: 80_000 }],
    doctors: [{ ...PREAUTH_DOCTOR, is_primary: true }],
    diagnoses: [{ icd_code: 'DD51' }],
    provider_notification_email: 'claims@hospital.example',
    clinical_indications: 'Symptomatic right inguinal hernia',
    ...preauthDetailRequest(details, atDay, atDay('2030-01-15')),
  });
}

describe('the preauth types on the wire', () => {
  it('keeps a surgical preauth’s own fields and shows them in the look-up, typed as the portal types them', async () => {
    const token = await previsitConsent();
    const created = await create(token, {
      type: 'surgical',
      anaesthesia: 'SPINAL',
      surgeryDate: '2030-01-15',
      chiefComplaint: 'Reducible right groin swelling',
      vitalSigns: 'BP 124/80',
      investigations: 'Ultrasound: indirect hernia',
      relatedToEmployment: false,
      coInsured: true,
      coInsuranceDetails: 'Employer scheme',
    });
    expect(created.requestDetails).toEqual({
      anaesthesiaType: 'SPINAL',
      chiefComplaint: 'Reducible right groin swelling',
      vitalSigns: 'BP 124/80',
      investigations: 'Ultrasound: indirect hernia',
      conditionEmploymentRelated: false,
      hasCoinsurance: true,
      coinsuranceDetails: 'Employer scheme',
      clinicalIndications: 'Symptomatic right inguinal hernia',
    });
    const [found] = await w.hospital.preauth.find({ consent_token: token });
    expect(found?.requestDetails).toEqual(created.requestDetails);
  });

  it('shows an oncology preauth’s lists as lists and its numbers as numbers; a normal one has no details', async () => {
    const token = await previsitConsent();
    const first = await create(token, { type: 'normal' });
    expect(first.requestDetails).toEqual({ clinicalIndications: 'Symptomatic right inguinal hernia' });
    await w.hospital.preauth.cancel({ consent_token: token, intervention_code: codes.elective.code });
    const oncology = await create(token, {
      type: 'oncology',
      staging: 'STAGE_3',
      metastases: ['LUNG', 'BONE'],
      treatmentSettings: ['DAY_WARD', 'SIDE_ROOM'],
      sessions: 6,
      costPerSessionKes: 45_000.5,
      comorbidity: 'Hypertension',
    });
    expect(oncology.requestDetails).toMatchObject({
      carcinomaStaging: 'STAGE_3',
      metastases: ['LUNG', 'BONE'],
      treatmentSetting: ['DAY_WARD', 'SIDE_ROOM'],
      sessionsRequired: 6,
      costPerSession: 45_000.5,
      comorbidity: 'Hypertension',
    });
  });

  it('takes a new request after the payer’s rejection: a full create with the changes, a new preauth beside the rejected one', async () => {
    const token = await previsitConsent();
    const rejected = await create(token, { type: 'surgical', anaesthesia: 'GENERAL' });
    await w.raw.control('POST', `/sandbox/preauths/${rejected.id ?? ''}/doctor-approval`);
    await w.raw.control('POST', `/sandbox/preauths/${rejected.id ?? ''}/payer-rejection`, { reason: 'Spinal anaesthesia is the standard for this repair' });
    const [seen] = await w.hospital.preauth.find({ consent_token: token });
    expect(seen).toMatchObject({ status: 'REJECTED' });

    const again = await create(token, { type: 'surgical', anaesthesia: 'SPINAL', chiefComplaint: 'Reducible right groin swelling' });
    expect(again.id).not.toBe(rejected.id);
    expect(again).toMatchObject({ status: 'PENDING_DOCTOR_APPROVAL', requestDetails: { anaesthesiaType: 'SPINAL' } });
    const all = await w.hospital.preauth.find({ consent_token: token });
    expect(all.map((p) => [p.id, p.status])).toEqual(expect.arrayContaining([[rejected.id, 'REJECTED'], [again.id, 'PENDING_DOCTOR_APPROVAL']]));
  });
});
