// The domain types the client's operations resolve to, in one place for the station core.
export type { FileInput, JsonValue, Page, Confirmation } from './common';
export type { AccessToken } from './auth';
export type { Patient } from './registry';
export type {
  AccessPoint,
  Coverage,
  Eligibility,
  EligibilityScheme,
  FundLimit,
  Intervention,
  InterventionScenario,
  PaymentMechanism,
  PomsfBalance,
  PomsfBalanceEntry,
  PomsfBenefit,
  PomsfPolicy,
  SubBenefit,
  Utilization,
} from './eligibility';
export type {
  Authorization,
  AuthorizationRecord,
  AuthorizationRejected,
  AuthorizationStatus,
  Contact,
  OtpSent,
  OtpWhitelistRequest,
} from './consent';
export type { Preauth, PreauthStatus } from './preauth';
export type {
  AddedIntervention,
  Attachment,
  ClaimDiagnosis,
  ClaimLine,
  ClaimPreview,
  ClaimState,
  Housekeeping,
  InterventionOnClaim,
  Invoice,
  LineResubmission,
  Visit,
  WorkflowState,
} from './claims';
export type { EmergencyClaim, EmergencyProtocol, EmergencyProtocolLine } from './emergency';
export type { DispenseEntry, Prescription, PrescriptionPreview } from './prescriptions';
export type { CallbackEndpoint, CallbackOperation } from './callbacks';
export type { BedOccupancy, Concept, Facility, FhirBundle, Professional, ProfessionalLicence, SecurityLabel } from './lookups';
