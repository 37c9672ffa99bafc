import { describe, expect, it } from 'vitest';
import { routeDecision } from '../../../electron/contract';
import { decideRoute, type RouteFacts } from '../../../electron/station/route';

const now = Date.parse('2025-03-04T09:00:00Z');
const base: RouteFacts = { purpose: 'visit', biometricsEnforced: true, whitelisted: false, hasPhone: true, fingerprintsUnusableUntil: undefined, now };

describe('the consent route', () => {
  it.each([
    ['enforced, not whitelisted', {}, 'fingerprint', 'biometrics-enforced', false],
    ['not enforced', { biometricsEnforced: false }, 'fingerprint', 'biometrics-not-enforced', true],
    ['enforcement unknown counts as enforced', { biometricsEnforced: undefined }, 'fingerprint', 'biometrics-enforced', false],
    ['whitelisted where enforced', { whitelisted: true }, 'fingerprint', 'whitelisted', true],
    ['no phone', { hasPhone: false, biometricsEnforced: false }, 'fingerprint', 'no-phone', false],
    ['fingerprints unusable, window open', { fingerprintsUnusableUntil: now + 60_000 }, 'sms-fallback', 'fingerprints-unusable', true],
    ['fingerprints unusable, no phone', { fingerprintsUnusableUntil: now + 60_000, hasPhone: false }, 'blocked', 'no-phone-no-fingerprints', false],
    ['window closed where enforced', { fingerprintsUnusableUntil: now - 1 }, 'blocked', 'fallback-window-closed', false],
    ['window closed, not enforced', { fingerprintsUnusableUntil: now - 1, biometricsEnforced: false }, 'sms', 'biometrics-not-enforced', true],
    ['window closed, whitelisted', { fingerprintsUnusableUntil: now - 1, whitelisted: true }, 'sms', 'whitelisted', true],
    ['emergency identification', { purpose: 'identification' as const, biometricsEnforced: true }, 'sms', 'sms-only', true],
  ])('%s', (_name, facts, route, reason, smsAllowed) => {
    const decision = decideRoute({ ...base, ...facts });
    expect(routeDecision.parse(decision)).toEqual(decision);
    expect(decision.route).toBe(route);
    expect(decision.reason).toBe(reason);
    expect(decision.smsAllowed).toBe(smsAllowed);
  });

  it('advises the whitelist request only when the patient is blocked', () => {
    expect(decideRoute({ ...base, fingerprintsUnusableUntil: now + 1, hasPhone: false }).whitelistAdvised).toBe(true);
    expect(decideRoute({ ...base, fingerprintsUnusableUntil: now - 1 }).whitelistAdvised).toBe(true);
    expect(decideRoute(base).whitelistAdvised).toBe(false);
  });

  it('names the end of the SMS window only for the fallback', () => {
    expect(decideRoute({ ...base, fingerprintsUnusableUntil: now + 900_000 }).fallbackUntil).toBe('2025-03-04T09:15:00.000Z');
    expect(decideRoute({ ...base, whitelisted: true }).fallbackUntil).toBeNull();
  });
});
