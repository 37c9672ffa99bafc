// SHA's closed lists: every value set the exchange fixes, written once, each with where it was
// seen (docs/exchange-wire.md cites the sources field by field). The contract, the exchange client
// and the sandbox build their schemas from these; none of them spells a list again (held by
// test/unit/vocabulary.test.ts). Values only — no schemas, no behaviour: how a request is built and
// how an answer is read stay written twice, by the client and by the sandbox, each proving the other.

// ---- Who someone is

/** How the registry identifies a patient (FN "Eligibility"; the contract's examples). */
export const identificationTypes = ['National ID', 'ClientRegistry ID', 'Birth Notification', 'Birth Certificate', 'Alien ID', 'Refugee ID', 'Mandate Number'] as const;

/** How a practitioner is identified where the portal lists the values (R docs emergency, preauth-doctor-consent). */
export const practitionerIdentificationTypes = ['registration_number', 'National ID', 'Alien ID', 'Refugee ID'] as const;

/** The regulators the portal lists for a practitioner on preauths, emergencies, doctor consent and prescriptions (same sources). */
export const regulationBodies = ['KMPDC', 'COC', 'NCK'] as const;

/** The regulators the professionals registry is searched under (FN "Professionals search": upper case), the pharmacy board's too. */
export const registryRegulators = [...regulationBodies, 'PPB'] as const;

/** A dispenser is named by an identity document: UAT answers 400 to a registration number (R `create_dispense()`). */
export const dispenserIdentificationTypes = ['National ID', 'Alien ID', 'Refugee ID'] as const;

/** How a facility is looked up in the registry (FN "Facility search"). */
export const facilityIdentifierTypes = ['fr-code', 'mfl', 'license-number', 'registration-number', 'fid', 'sha-license-number'] as const;

// ---- Consent

/**
 * `service_type` on the wire (WE "service_type": R WORKFLOWS, observed; A's enum): a capitation
 * intervention is refused under OUTPATIENT and needs CAPITATION.
 */
export const serviceTypes = ['CAPITATION', 'OUTPATIENT', 'INPATIENT', 'EMERGENCY'] as const;

/** `service_type` of an authorize: the portal lists OUTPATIENT and INPATIENT; UAT takes CAPITATION (R WORKFLOWS). */
export const authorizeServiceTypes = ['CAPITATION', 'OUTPATIENT', 'INPATIENT'] as const;

/** `authorizing_device_os` (K `AuthorizingDeviceOS`, A and R comments): the workstation's class, not the station's OS. */
export const deviceOperatingSystems = ['windows', 'android'] as const;

/** Statuses of an authorization (FN "Biometric authorization"). */
export const authorizationStatuses = [
  'PENDING',
  'AUTHORIZED',
  'AUTHORIZED_PENDING_VISIT',
  'REJECTED',
  'EXPIRED',
  'SUBMITTED_CLAIM',
  'AUTHORIZED_MULTISESSION',
  'EMERGENCY_AUTHORIZED',
  'CLOSED',
] as const;

/** `reason_type` of an OTP whitelist request (FN "Contacts and OTP"; A, V, K). */
export const otpWhitelistReasons = [
  'OLD',
  'AMPUTEE',
  'MEDICAL_CONDITION',
  'MENTALLY_UNSTABLE',
  'ONCOLOGY_TREATMENT',
  'DIALYSIS_TREATMENT',
  'CONSTRUCTION_WORKER',
  'OTHER',
  'EXPIRED',
  'BIOMETRIC_FAILURE',
  'CHILD_BELOW_7_YEARS',
  'PRIVACY_CONCERNS',
  'TECHNICAL_ISSUES',
] as const;

/** `request_type` of POST /claims/doctor-consent: required (portal; A's DTO; R `doctor_consent()`). */
export const doctorConsentRequestTypes = ['PREAUTH_DOCTOR_APPROVAL_REQUEST', 'EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST', 'PRESCRIPTION_REQUEST'] as const;

// ---- Claims

/** A claim's `workflow_state` (FN "Visit, discharge, submit"). */
export const claimWorkflowStates = [
  'DRAFT',
  'PENDING',
  'SUBMISSION_READY',
  'ON_HOLD',
  'TIME_BARRED',
  'SUBMITTED',
  'DISPATCHED',
  'FAILED_TO_SUBMIT',
  'SUBMITTED_PAYER',
  'AUTOMATIC_CHECKS_DONE',
  'DRAFT_RESUBMIT',
  'DRAFT_RESUBMIT_DOCUMENTS',
  'CLOSED',
] as const;

/** Valid `discharge_reason` on submit (service-interface.md, "Enumerations"); DECEASED is not. */
export const submitDischargeReasons = ['RECOVERED', 'REFERRED', 'ABSCONDED', 'OTHER'] as const;

/** An inpatient discharge may record a death (R docs claim-dispatch); only submit refuses DECEASED. */
export const dischargeReasons = [...submitDischargeReasons, 'DECEASED'] as const;

/** `reason_for_unknown_patient` (service-interface.md, "Enumerations"). */
export const unknownPatientReasons = ['SHA_UNREGISTERED', 'DECEASED'] as const;

/** `discharge_status` (FN "Visit, discharge, submit"): no peer sends it (WE), so it is never required. */
export const dischargeStatuses = ['PARTIAL', 'FULL'] as const;

/** `cancel_reason_type` of POST /claims/close (R docs claim-dispatch; A `CloseClaimDto`). */
export const cancelReasonTypes = ['WRONG_PATIENT', 'NO_SERVICE_GIVEN', 'WRONG_BENEFIT', 'EXPIRED_VISIT', 'EXHAUSTED_BENEFIT', 'TIME_BARRED', 'OTHER_REASONS'] as const;

/** The document types a claim's papers are filed under (R docs billing, `POST /claims/attachments`). */
export const claimDocumentTypes = [
  'BIO_DETAILS',
  'BIRTH_NOTIFICATION',
  'CARE_PLAN',
  'CASE_NOTE',
  'CASE_SUMMARY',
  'CERTIFIED_BURIAL_PERMIT',
  'CERTIFIED_COPY_OF_DECEASED_ID',
  'CLAIM_FORM',
  'COVER_LETTER_FROM_EMPLOYER',
  'CRITICAL_CARE_UNIT_CASE',
  'CT_SCAN',
  'DEATH_NOTICE',
  'DIALYSIS_CHART',
  'DISCHARGE_SUMMARY',
  'ENTRY_EXIT_VISA_STAMP',
  'FINAL_BILL',
  'IMAGING_ORDER',
  'IMAGING_REPORT',
  'INVOICE',
  'LAB_ORDER',
  'LAB_RESULTS',
  'MAGNETIC_RESONANCE_IMAGING',
  'MEDICAL_REPORT',
  'OTHER',
  'POST_SERVICE_IMAGING_REPORT',
  'PRE_SERVICE_IMAGING_REPORT',
  'PREAUTH_FORM',
  'PRESCRIPTION',
  'REQUEST_FORM_BY_RELEVANT_CONSULTANT',
  'RHESUS_FACTOR',
  'THEATRE_NOTES',
] as const;

// ---- Preauthorizations

/** A preauth's status (FN "Visit, discharge, submit"). */
export const preauthStatuses = [
  'DRAFT',
  'PENDING_SUBMISSION',
  'CANCELLED',
  'DOCTOR_REQUEST_SENT',
  'PENDING_DOCTOR_APPROVAL',
  'DOCTOR_REQUEST_FAILED',
  'ACTIVE',
  'CLARIFICATION_AFTER_AUTOMATIC_CHECKS',
  'FINALISED',
  'REJECTED',
  'REJECTED_AFTER_APPROVAL',
] as const;

/**
 * The flat, type-specific parts of a preauth (renal, oncology, optical, surgical…): the names A's
 * pre-auth service forwards (`SPECIALTY_FORWARD_FIELDS`, `SURGICAL_HIE_FIELDS`) and K's
 * `buildPreauthFormData` sends. Each is a text part; which ones a preauth needs is not documented.
 */
export const preauthDetailFields = [
  'clinical_indications',
  'carcinoma_staging',
  'comorbidity',
  'metastases',
  'treatment_setting',
  'number_of_sessions_required',
  'cost_per_session',
  'is_co_insured',
  'necessity_of_service',
  'lens_prescription',
  'lens_amount',
  'eye_examination_amount',
  'frame_amount',
  'new_or_replacement',
  'frequency_of_sessions',
  'start_date',
  'expected_service_start_date',
  'progress_report',
  'is_condition_related_to_employment',
  'is_condition_related_to_auto_or_other_accident',
  'co_insurance_details',
  'chief_complaint',
  'vital_signs',
  'history_of_present_illness',
  'physical_examination',
  'investigation_report_details',
  'type_of_anaesthesia',
  'surgery_date',
] as const;

// ---- Emergencies

/** `mode_of_arrival` (R docs emergency; A `cc/emergency/types`). */
export const modesOfArrival = ['AMBULANCE', 'WALK-IN', 'OTHER'] as const;

/** `brought_by` (R docs emergency, required; A `cc/emergency/types`). */
export const broughtBy = ['RELATIVE', 'UNKNOWN', 'SAMARITAN', 'PARAMEDICS'] as const;

// ---- Status callbacks and the shared health record

/** The entities status callbacks are registered for (FN "Status callbacks"; R `domain/callbacks.py`). */
export const callbackEntityTypes = ['claim', 'preauth', 'authorization'] as const;

/** A callback endpoint's environment (R `domain/callbacks.py`). */
export const callbackEnvironments = ['production', 'sandbox'] as const;

/** How the exchange authenticates to a callback endpoint (R `domain/callbacks.py`). */
export const callbackAuthTypes = ['none', 'oauth2_client_credentials', 'api_key', 'basic_auth', 'bearer_static', 'bearer_login'] as const;

/** FHIR ServiceRequest statuses, the `status` filter of GET /shr/ServiceRequest (FHIR R4 `request-status`). */
export const serviceRequestStatuses = ['draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error', 'unknown'] as const;
