// A pending fingerprint authorization is looked up every 3 s (issue 4): the station's default
// timing says 3 s, the first wait is scheduled with it, and each PENDING answer schedules the next.
import { describe, expect, it } from 'vitest';
import { defaultTiming } from '../../../electron/station/deps';
import type { Ctx } from '../../../electron/station/workflows/context';
import type { AnyWorkflow, VerificationData } from '../../../electron/station/workflows/types';
import { pollOnce, schedulePoll, type VerificationHost } from '../../../electron/station/workflows/verification';

const NOW = Date.parse('2025-03-04T09:00:00Z');

function fakeCtx(status: string) {
  const scheduled: { key: string; delayMs: number }[] = [];
  const lookUps: unknown[] = [];
  const ctx = {
    timing: defaultTiming,
    clock: { now: () => NOW },
    nowIso: () => new Date(NOW).toISOString(),
    log: { info: () => undefined, warn: () => undefined },
    engine: {
      repeat: (purpose: string, workflowId: string, delayMs: number) => scheduled.push({ key: `${purpose}:${workflowId}`, delayMs }),
      commit: (fn: () => void) => fn(),
      save: () => undefined,
      cancelRepeat: () => undefined,
    },
    session: {
      client: () => ({
        consent: {
          getAuthorization: (query: unknown) => {
            lookUps.push(query);
            return Promise.resolve({ status });
          },
        },
      }),
    },
  } as unknown as Ctx;
  return { ctx, scheduled, lookUps };
}

function awaitingFingerprint(): { wf: AnyWorkflow; host: VerificationHost<AnyWorkflow> } {
  const step = {
    stage: 'awaiting-fingerprint',
    authToken: 'auth-token',
    authGuid: null,
    link: { handle: 'lk_1', url: 'https://auth.example/x', expiresAt: new Date(NOW + 10 * 60_000).toISOString() },
    checkedAt: null,
  } as unknown as VerificationData;
  const wf = { id: 'wf_1', kind: 'consent', state: 'verifying', lastError: null } as unknown as AnyWorkflow;
  const host = { step: () => step } as unknown as VerificationHost<AnyWorkflow>;
  return { wf, host };
}

describe('the fingerprint look-up interval', () => {
  it('is 3 s by default', () => {
    expect(defaultTiming.authorizationPollMs).toBe(3000);
  });

  it('waits 3 s before the next look-up', () => {
    const { ctx, scheduled } = fakeCtx('PENDING');
    const { host } = awaitingFingerprint();
    schedulePoll(ctx, host, 'wf_1');
    expect(scheduled).toEqual([{ key: 'poll:wf_1', delayMs: 3000 }]);
  });

  it('looks up again 3 s after a PENDING answer', async () => {
    const { ctx, lookUps } = fakeCtx('PENDING');
    const { wf, host } = awaitingFingerprint();
    expect(await pollOnce(ctx, host, wf)).toBe(3000);
    expect(lookUps).toEqual([{ token: 'auth-token' }]);
  });

  it('looks up no more once the request is decided', async () => {
    const { ctx } = fakeCtx('REJECTED');
    const { wf, host } = awaitingFingerprint();
    expect(await pollOnce(ctx, host, wf)).toBeNull();
  });
});
