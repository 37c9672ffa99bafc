// The consent route: fingerprint by default; an SMS code only where the facility does not enforce
// biometrics, the patient is whitelisted for OTP, or the exchange answered
// BIOMETRICS_NOT_FOUND_OTP_ALLOWED (then only inside its window). A patient with neither a phone nor
// usable fingerprints is blocked and told about the OTP whitelist request. Identifying an emergency
// patient is by SMS code only. One table, read top to bottom.
import type { z } from 'zod';
import type { routeDecision, verificationStep } from '../contract';

export type RouteDecision = z.infer<typeof routeDecision>;
export type VerificationPurpose = z.infer<typeof verificationStep>['purpose'];

export interface RouteFacts {
  readonly purpose: VerificationPurpose;
  /** Unknown (the exchange did not say) counts as enforced: the safe side. */
  readonly biometricsEnforced: boolean | undefined;
  readonly whitelisted: boolean;
  readonly hasPhone: boolean;
  /** Set once the exchange answered BIOMETRICS_NOT_FOUND_OTP_ALLOWED: the window's end (ms). */
  readonly fingerprintsUnusableUntil: number | undefined;
  readonly now: number;
}

type Rule = {
  readonly when: (f: RouteFacts & { enforced: boolean; fallbackOpen: boolean; unusable: boolean }) => boolean;
  readonly decide: Omit<RouteDecision, 'fallbackUntil'> & { readonly withWindow?: boolean };
};

const smsOnly = { route: 'sms', reason: 'sms-only', fingerprintAllowed: false, smsAllowed: true, whitelistAdvised: false } as const;

/** First matching row wins. */
const rules: readonly Rule[] = [
  // Identifying an emergency patient is by SMS code only (the contract).
  { when: (f) => f.purpose === 'identification', decide: smsOnly },
  // Fingerprints known to be unusable, window open.
  {
    when: (f) => f.unusable && f.fallbackOpen && f.hasPhone,
    decide: { route: 'sms-fallback', reason: 'fingerprints-unusable', fingerprintAllowed: false, smsAllowed: true, whitelistAdvised: false, withWindow: true },
  },
  {
    when: (f) => f.unusable && !f.hasPhone,
    decide: { route: 'blocked', reason: 'no-phone-no-fingerprints', fingerprintAllowed: false, smsAllowed: false, whitelistAdvised: true },
  },
  // Window closed: an SMS code only where it would be allowed anyway.
  {
    when: (f) => f.unusable && !f.enforced,
    decide: { route: 'sms', reason: 'biometrics-not-enforced', fingerprintAllowed: false, smsAllowed: true, whitelistAdvised: false },
  },
  {
    when: (f) => f.unusable && f.whitelisted,
    decide: { route: 'sms', reason: 'whitelisted', fingerprintAllowed: false, smsAllowed: true, whitelistAdvised: false },
  },
  {
    when: (f) => f.unusable,
    decide: { route: 'blocked', reason: 'fallback-window-closed', fingerprintAllowed: false, smsAllowed: false, whitelistAdvised: true },
  },
  // Fingerprints usable (or not known to be otherwise): fingerprint by default.
  {
    when: (f) => !f.hasPhone,
    decide: { route: 'fingerprint', reason: 'no-phone', fingerprintAllowed: true, smsAllowed: false, whitelistAdvised: false },
  },
  {
    when: (f) => !f.enforced,
    decide: { route: 'fingerprint', reason: 'biometrics-not-enforced', fingerprintAllowed: true, smsAllowed: true, whitelistAdvised: false },
  },
  {
    when: (f) => f.whitelisted,
    decide: { route: 'fingerprint', reason: 'whitelisted', fingerprintAllowed: true, smsAllowed: true, whitelistAdvised: false },
  },
  {
    when: () => true,
    decide: { route: 'fingerprint', reason: 'biometrics-enforced', fingerprintAllowed: true, smsAllowed: false, whitelistAdvised: false },
  },
];

export function decideRoute(facts: RouteFacts): RouteDecision {
  const until = facts.fingerprintsUnusableUntil;
  const extended = {
    ...facts,
    enforced: facts.biometricsEnforced !== false,
    unusable: until !== undefined,
    fallbackOpen: until !== undefined && until > facts.now,
  };
  const rule = rules.find((r) => r.when(extended));
  // The last rule always matches; the fallback keeps the type total.
  const { withWindow, ...decision } = (rule ?? rules[rules.length - 1]!).decide;
  return { ...decision, fallbackUntil: withWindow === true && until !== undefined ? new Date(until).toISOString() : null };
}
