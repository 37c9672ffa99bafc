// The seven preauth types in the contract's preauth form: each type's own part, checked with an
// error that names the field, and turned by the station into the flat fields the exchange takes
// (electron/station/preauth-details.ts), which the exchange client accepts as they are.
import { describe, expect, it } from 'vitest';
import { validateInvoke, type PreauthDetails } from '../../../electron/contract';
import { createPreauthRequest } from '../../../electron/payer/wire';
import { preauthDetailRequest } from '../../../electron/station/preauth-details';

const form = (details: unknown, extra: Record<string, unknown> = {}) => ({
  workflowId: 'wf_0123456789abcdef',
  serviceStart: '2030-01-15',
  serviceEnd: '2030-01-17',
  requestedAmountKes: 85_000,
  diagnoses: [{ code: 'DD51' }],
  doctor: { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' },
  notificationEmail: 'claims@hospital.example',
  ...(details === undefined ? {} : { details }),
  ...extra,
});

function refusal(input: unknown): { field: unknown; message: string } {
  const call = validateInvoke('elective.submitPreauth', input);
  if (call.ok) throw new Error('accepted');
  return { field: call.error.details?.field, message: call.error.message };
}

const accepted = (input: unknown) => {
  const call = validateInvoke('elective.submitPreauth', input);
  if (!call.ok) throw new Error(call.error.message);
  return call.value.input as { details?: PreauthDetails };
};

const atDay = (day: string) => `${day}T00:00:00+03:00`;

const examples: Record<PreauthDetails['type'], PreauthDetails> = {
  normal: { type: 'normal' },
  dental: { type: 'dental' },
  imaging: { type: 'imaging' },
  surgical: { type: 'surgical', anaesthesia: 'SPINAL', surgeryDate: '2030-01-15', chiefComplaint: 'Right groin swelling', relatedToEmployment: false, coInsured: true, coInsuranceDetails: 'Employer scheme' },
  renal: { type: 'renal', sessions: 12, costPerSessionKes: 9_500, frequency: 'TWICE_A_WEEK', firstSessionDate: '2030-01-16' },
  oncology: { type: 'oncology', staging: 'STAGE_3', metastases: ['LUNG', 'BONE'], treatmentSettings: ['DAY_WARD'], sessions: 6, costPerSessionKes: 45_000, comorbidity: 'Hypertension' },
  optical: { type: 'optical', lensPrescription: 'FRAMES_LENSES', newOrReplacement: 'REPLACEMENT', lensKes: 3_000, frameKes: 2_000, eyeExaminationKes: 500, necessity: 'Myopia, broken frames' },
};

describe("the contract's preauth form, by type", () => {
  it.each(Object.entries(examples))('takes %s preauths', (type, details) => {
    const clinicalNotes = type === 'imaging' ? 'Suspected renal calculus, needs CT KUB' : undefined;
    expect(accepted(form(details, clinicalNotes === undefined ? {} : { clinicalNotes })).details).toEqual(details);
  });

  it('takes a preauth without details as a normal one', () => {
    expect(accepted(form(undefined)).details).toBeUndefined();
  });

  it.each<[string, unknown, Record<string, unknown>, string, RegExp]>([
    ['an unknown type', { type: 'maternity' }, {}, 'details.type', /normal, surgical, renal, oncology, optical, imaging, dental/],
    ['surgery without the anaesthesia', { type: 'surgical' }, {}, 'details.anaesthesia', /type of anaesthesia/],
    ['an anaesthesia no client sends', { type: 'surgical', anaesthesia: 'HYPNOSIS' }, {}, 'details.anaesthesia', /GENERAL, LOCAL/],
    ['surgery outside the planned stay', { type: 'surgical', anaesthesia: 'GENERAL', surgeryDate: '2030-02-01' }, {}, 'details.surgeryDate', /within the planned stay/],
    ['dialysis without its sessions', { type: 'renal', costPerSessionKes: 9_500, frequency: 'ONCE_A_WEEK' }, {}, 'details.sessions', /number of sessions/],
    ['half a session', { ...examples.renal, sessions: 2.5 }, {}, 'details.sessions', /whole number/],
    ['cancer care without a metastasis site', { ...examples.oncology, metastases: [] }, {}, 'details.metastases', /at least one site/],
    ['a site given twice', { ...examples.oncology, metastases: ['LUNG', 'LUNG'] }, {}, 'details.metastases', /chosen once/],
    ['imaging without its reason', { type: 'imaging' }, {}, 'clinicalNotes', /why the imaging is needed/],
    ['a field of another type', { type: 'normal', sessions: 3 }, {}, 'details.sessions', /sessions/],
  ])('refuses %s, naming the field', (_label, details, extra, field, message) => {
    const problem = refusal(form(details, extra));
    expect(problem.field).toBe(field);
    expect(problem.message).toMatch(message);
  });
});

describe('the station turns the details into the fields the exchange takes', () => {
  const request = (details: PreauthDetails | undefined, plannedStart?: string) => ({
    consent_token: 'AT-1',
    intervention_code: 'SHA-08-001',
    service_start: '2030-01-15T00:00:00+03:00',
    service_end: '2030-01-17T23:59:59+03:00',
    items: [{ unit_price: 85_000 }],
    doctors: [{ identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC', is_primary: true }],
    diagnoses: [{ icd_code: 'DD51' }],
    provider_notification_email: 'claims@hospital.example',
    ...preauthDetailRequest(details, atDay, plannedStart),
  });

  it.each(Object.entries(examples))('%s preauths, which the client accepts as they are', (_type, details) => {
    expect(createPreauthRequest.safeParse(request(details)).success).toBe(true);
  });

  it('writes each type’s own fields, and only what the nurse answered', () => {
    expect(preauthDetailRequest(examples.surgical, atDay)).toEqual({
      type_of_anaesthesia: 'SPINAL',
      surgery_date: '2030-01-15T00:00:00+03:00',
      chief_complaint: 'Right groin swelling',
      is_condition_related_to_employment: false,
      is_co_insured: true,
      co_insurance_details: 'Employer scheme',
    });
    expect(preauthDetailRequest(examples.renal, atDay)).toEqual({
      number_of_sessions_required: 12,
      cost_per_session: 9_500,
      frequency_of_sessions: 'TWICE_A_WEEK',
      start_date: '2030-01-16T00:00:00+03:00',
    });
    expect(preauthDetailRequest(examples.oncology, atDay)).toEqual({
      carcinoma_staging: 'STAGE_3',
      metastases: ['LUNG', 'BONE'],
      treatment_setting: ['DAY_WARD'],
      number_of_sessions_required: 6,
      cost_per_session: 45_000,
      comorbidity: 'Hypertension',
    });
    expect(preauthDetailRequest(examples.optical, atDay)).toEqual({
      necessity_of_service: 'Myopia, broken frames',
      lens_prescription: 'FRAMES_LENSES',
      new_or_replacement: 'REPLACEMENT',
      lens_amount: 3_000,
      eye_examination_amount: 500,
      frame_amount: 2_000,
    });
    for (const type of ['normal', 'dental', 'imaging'] as const) expect(preauthDetailRequest(examples[type], atDay)).toEqual({});
    // An elective's planned start goes as expected_service_start_date (A).
    expect(preauthDetailRequest(undefined, atDay, '2030-01-15T00:00:00+03:00')).toEqual({ expected_service_start_date: '2030-01-15T00:00:00+03:00' });
  });
});
