// The exchange client (SDK) of the national payer's claims, preauthorization, eligibility and
// prescription interface. Import from here; the wire schemas are also at ./wire for the sandbox.
export { createExchangeClient, type ExchangeClient, type ExchangeClientOptions, type ReadonlyInput } from './client';
export { ExchangeError, exchangeErrorKinds, isExchangeError, type ExchangeErrorDetail, type ExchangeErrorKind } from './errors';
export type { CallOptions, ExchangeEvent } from './executor';
export { operations, operationGroups, type OperationInfo, type OperationName } from './operations';
export type { RetryPolicy } from './retry';
export { isResubmissionForm, resubmissionForms, resubmissionRoute, resubmitReturnedClaim, type Resubmission, type ResubmissionForm, type ResubmissionOptions } from './resubmission';
export * from './wire/types';
/** The practitioner identification types and regulators the portal lists for doctor-carrying requests. */
export { practitionerIdentificationTypes, regulationBodies } from './wire/common';
/** The concept search's answer, read as far as any source shows it; the regulators the professionals registry knows. */
export { readConcepts, regulators as registryRegulators } from './wire/lookups';
