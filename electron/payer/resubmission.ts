// A returned claim's resubmission in whichever of its documented forms the exchange serves. The
// sources disagree on the route (docs/exchange-wire.md, `claims.resubmit`), so the client tries the
// forms in order and moves on only where the exchange says the route does not exist: 405, or 404
// while the claim preview still finds the claim. Any other answer is the answer; a call whose
// outcome is not known ends the attempt there, since the exchange may have done the work.
import type { ExchangeClient } from './client';
import { ExchangeError, isExchangeError } from './errors';
import type { CallOptions } from './executor';
import { operationGroups } from './operations';

/**
 * The forms, in the order tried: the portal's route (R's builder posts there too), the exchange's
 * Postman collection's, then A's `/claims/submit` with the consent token alone. A's goes last although
 * it is the one a production client moved to: `/claims/submit` exists on every exchange, so a refusal
 * there cannot say "wrong form", and no form after it would ever be tried.
 */
export const resubmissionForms = ['claims.resubmit', 'claims.resubmitAtPostmanPath', 'claims.resubmitBySubmit'] as const;
export type ResubmissionForm = (typeof resubmissionForms)[number];

const operationOf = {
  'claims.resubmit': operationGroups.claims.resubmit,
  'claims.resubmitAtPostmanPath': operationGroups.claims.resubmitAtPostmanPath,
  'claims.resubmitBySubmit': operationGroups.claims.resubmitBySubmit,
} as const satisfies Record<ResubmissionForm, { readonly method: string; readonly path: string }>;

export function isResubmissionForm(value: unknown): value is ResubmissionForm {
  return (resubmissionForms as readonly unknown[]).includes(value);
}

/** `POST /api/v1/claims/resubmit`: the route of a form, as a reader (and the activity record) names it. */
export function resubmissionRoute(form: ResubmissionForm): string {
  return `${operationOf[form].method} ${operationOf[form].path}`;
}

export interface Resubmission {
  /** The form the exchange took. */
  readonly form: ResubmissionForm;
  /** The forms tried before it, each answered "no such route". */
  readonly missing: readonly ResubmissionForm[];
  /** The claim's state as the answer gives it, when it does. */
  readonly state: string | undefined;
}

export interface ResubmissionOptions extends CallOptions {
  /** The form this exchange took last time: tried first. */
  readonly remembered?: ResubmissionForm;
}

async function send(client: ExchangeClient, form: ResubmissionForm, input: { readonly consent_token: string }, options: CallOptions): Promise<string | undefined> {
  switch (form) {
    case 'claims.resubmit':
      return (await client.claims.resubmit(input, options)).status;
    case 'claims.resubmitAtPostmanPath':
      return (await client.claims.resubmitAtPostmanPath(input, options)).status;
    case 'claims.resubmitBySubmit':
      return (await client.claims.resubmitBySubmit(input, options)).status;
  }
}

/**
 * Resubmits a claim the payer returned. Throws the exchange's own error for anything but "no such
 * route"; when every form answers that, a `not_found` naming the routes tried.
 */
export async function resubmitReturnedClaim(client: ExchangeClient, input: { readonly consent_token: string }, options: ResubmissionOptions = {}): Promise<Resubmission> {
  const { remembered, ...callOptions } = options;
  const order = remembered === undefined ? resubmissionForms : [remembered, ...resubmissionForms.filter((f) => f !== remembered)];
  const missing: ResubmissionForm[] = [];
  let claimFound: Promise<boolean> | undefined;
  // A 404 says either "no such route" or "no such claim", in bodies no source tells apart; the claim
  // preview (a read) settles which, once per resubmission.
  const claimExists = () => (claimFound ??= previewFinds(client, input.consent_token, callOptions));
  for (const form of order) {
    try {
      return { form, missing, state: await send(client, form, input, callOptions) };
    } catch (error) {
      if (!(await routeMissing(error, claimExists))) throw error;
      missing.push(form);
    }
  }
  throw new ExchangeError({
    kind: 'not_found',
    status: 404,
    operation: 'claims.resubmit',
    message: `The exchange serves none of the documented resubmission routes (${missing.map(resubmissionRoute).join(', ')})`,
  });
}

async function routeMissing(error: unknown, claimExists: () => Promise<boolean>): Promise<boolean> {
  if (!isExchangeError(error) || error.outcomeUnknown) return false;
  if (error.status === 405) return true;
  return error.status === 404 && (await claimExists());
}

/** True when the preview finds the claim, false when it answers 404; any other failure is thrown (nothing can be told). */
async function previewFinds(client: ExchangeClient, consentToken: string, options: CallOptions): Promise<boolean> {
  try {
    await client.claims.preview({ consent_token: consentToken }, options);
    return true;
  } catch (error) {
    if (isExchangeError(error) && error.status === 404) return false;
    throw error;
  }
}
