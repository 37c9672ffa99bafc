// The table of every operation the client knows, grouped as the client exposes them. The
// contract-path test reads `operations` to prove every path of the contract has an operation.
import type { HttpMethod } from './operation';
import { authOperations } from './resources/auth';
import { callbacksOperations } from './resources/callbacks';
import { claimsOperations } from './resources/claims';
import { consentOperations } from './resources/consent';
import { eligibilityOperations } from './resources/eligibility';
import { emergencyOperations } from './resources/emergency';
import { lookupsOperations, shrOperations } from './resources/lookups';
import { preauthOperations } from './resources/preauth';
import { prescriptionsOperations } from './resources/prescriptions';
import { registryOperations } from './resources/registry';

export const operationGroups = {
  auth: authOperations,
  registry: registryOperations,
  eligibility: eligibilityOperations,
  consent: consentOperations,
  preauth: preauthOperations,
  claims: claimsOperations,
  emergency: emergencyOperations,
  prescriptions: prescriptionsOperations,
  callbacks: callbacksOperations,
  lookups: lookupsOperations,
  shr: shrOperations,
} as const;

type Groups = typeof operationGroups;
/** Every operation's name, e.g. `claims.submit`: a table keyed by it must cover them all. */
export type OperationName = { [G in keyof Groups]: `${G}.${keyof Groups[G] & string}` }[keyof Groups];

export interface OperationInfo {
  /** `group.method`, as called on the client: `claims.submit` is `client.claims.submit(…)`. */
  readonly name: OperationName;
  readonly method: HttpMethod;
  /** Path template under the base URL, e.g. `/api/v1/claims/authorizations/{token}/reject`. */
  readonly path: string;
  readonly safeToRepeat: boolean;
}

export const operations: readonly OperationInfo[] = Object.values(operationGroups).flatMap((group) =>
  Object.values(group).map(({ name, method, path, safeToRepeat }) => ({ name: name as OperationName, method, path, safeToRepeat })),
);
