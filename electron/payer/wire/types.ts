// The domain types the client's operations resolve to, in one place for the station core.
export type { FileInput, JsonValue, Page, Confirmation } from './common';
export type { AccessToken } from './auth';
export type { Patient } from './registry';
export type {
  AccessPoint,
  Coverage,
  CoverSet,
  Eligibility,
  EligibilityScheme,
  Intervention,
  InterventionScenario,
  PaymentMechanism,
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
  Attachment,
  BillingSaved,
  ClaimLine,
  ClaimPreview,
  ClaimState,
  Doctor,
  DoctorAttached,
  Housekeeping,
  Visit,
  WorkflowState,
} from './claims';
export type { EmergencyClaim, EmergencyProtocol, EmergencyProtocolLine } from './emergency';
export type { DispenseEntry, Prescription } from './prescriptions';
export type { CallbackEndpoint, CallbackOperation } from './callbacks';
export type { BedOccupancy, Facility, FhirBundle, SecurityLabel } from './lookups';
