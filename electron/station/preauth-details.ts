// A preauthorization's type-specific part as the nurse gives it (the contract's `details`) and as
// the exchange takes it: the flat multipart fields the production clients send for each type
// (docs/exchange-wire.md, `preauth.create`). Pure; the elective workflow adds it to the request it sends.
import type { PreauthDetails } from '../contract';
import type { createPreauthRequest, PreauthDetailField } from '../payer/wire';
import type { z } from 'zod';

export type PreauthDetailRequest = Partial<Pick<z.input<typeof createPreauthRequest>, PreauthDetailField>>;

/**
 * The fields to add to `preauth.create` for these details. `atDay` turns a calendar day into the
 * date-time with its offset the exchange takes (the workflow's own conversion, so every date of one
 * request is written alike). `plannedStart`, an elective's planned start, goes as
 * `expected_service_start_date` (A: "Required for elective preauths").
 */
export function preauthDetailRequest(details: PreauthDetails | undefined, atDay: (day: string) => string, plannedStart?: string): PreauthDetailRequest {
  const planned: PreauthDetailRequest = plannedStart === undefined ? {} : { expected_service_start_date: plannedStart };
  if (details === undefined) return planned;
  const present = <T extends object>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
  switch (details.type) {
    case 'normal':
    case 'dental':
    case 'imaging':
      // Imaging's clinical indications are the request's clinicalNotes (clinical_indications), sent for every type.
      return planned;
    case 'surgical':
      return present({
        ...planned,
        type_of_anaesthesia: details.anaesthesia,
        surgery_date: details.surgeryDate === undefined ? undefined : atDay(details.surgeryDate),
        chief_complaint: details.chiefComplaint,
        vital_signs: details.vitalSigns,
        history_of_present_illness: details.historyOfPresentIllness,
        physical_examination: details.physicalExamination,
        investigation_report_details: details.investigations,
        is_condition_related_to_employment: details.relatedToEmployment,
        is_condition_related_to_auto_or_other_accident: details.relatedToAccident,
        is_co_insured: details.coInsured,
        co_insurance_details: details.coInsuranceDetails,
      });
    case 'renal':
      return present({
        ...planned,
        number_of_sessions_required: details.sessions,
        cost_per_session: details.costPerSessionKes,
        frequency_of_sessions: details.frequency,
        start_date: details.firstSessionDate === undefined ? undefined : atDay(details.firstSessionDate),
        is_co_insured: details.coInsured,
      });
    case 'oncology':
      return present({
        ...planned,
        carcinoma_staging: details.staging,
        metastases: details.metastases,
        treatment_setting: details.treatmentSettings,
        number_of_sessions_required: details.sessions,
        cost_per_session: details.costPerSessionKes,
        comorbidity: details.comorbidity,
        progress_report: details.progressReport,
        is_co_insured: details.coInsured,
      });
    case 'optical':
      return present({
        ...planned,
        necessity_of_service: details.necessity,
        lens_prescription: details.lensPrescription,
        new_or_replacement: details.newOrReplacement,
        lens_amount: details.lensKes,
        eye_examination_amount: details.eyeExaminationKes,
        frame_amount: details.frameKes,
      });
  }
}
