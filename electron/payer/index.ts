// The exchange client (SDK) of the national payer's claims, preauthorization, eligibility and
// prescription interface. Import from here; the wire schemas are also at ./wire. SHA's closed lists
// are electron/vocabulary's.
export { createExchangeClient, type ExchangeClient, type ExchangeClientOptions, type ReadonlyInput } from './client';
export { ExchangeError, exchangeErrorKinds, isExchangeError, type ExchangeErrorDetail, type ExchangeErrorKind } from './errors';
export type { CallOptions, ExchangeEvent } from './executor';
export { operations, operationGroups, type OperationInfo, type OperationName } from './operations';
export type { RetryPolicy } from './retry';
export { isResubmissionForm, resubmissionForms, resubmissionRoute, resubmitReturnedClaim, type Resubmission, type ResubmissionForm, type ResubmissionOptions } from './resubmission';
export * from './wire/types';
/** The concept search's answer, read as far as any source shows it. */
export { readConcepts } from './wire/lookups';
