// The station in Chromium as the bench drives it: waiting on the page, past the first-run screen,
// and the sandbox's control API (latency, the ward profile, the SMS outbox, what the faults saw).
// Kept out of bench/metrics, whose every file run.ts runs.
import type { Page } from 'playwright-core';
import { PATIENTS } from '../electron/sandbox/world/patients';

export const STEP_TIMEOUT_MS = 60_000;

/**
 * Waits until an expression is true in the page. Polled with evaluate (the station's CSP forbids
 * the eval waitForFunction needs); the moments measured are recorded by the page itself.
 */
export async function until(page: Page, expression: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`still not true after ${STEP_TIMEOUT_MS} ms: ${expression}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Sandbox {
  latency(ms: number): Promise<void>;
  profile(name: 'ward'): Promise<void>;
  clear(): Promise<void>;
  smsCount(crId: string): Promise<number>;
  /** The newest code once more than `seen` were sent, the outbox read every `everyMs`. */
  nextCode(crId: string, seen: number, everyMs?: number): Promise<string>;
  /** The latency the faults added to the last eligibility call. */
  lastEligibilityLatency(): Promise<number>;
  /** The exchange calls the faults decided so far, oldest first (the newest 200). */
  calls(): Promise<{ method: string; path: string; latency_ms: number }[]>;
  /** The ward profile with another seed: other draws, the same bands. */
  wardSeed(seed: string): Promise<void>;
}

export function sandboxAt(url: string): Sandbox {
  const send = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await fetch(`${url}/sandbox${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    if (!answer.ok) throw new Error(`sandbox ${method} ${path}: ${answer.status} ${await answer.text()}`);
    return answer.status === 204 ? null : answer.json();
  };
  const recent = async () => ((await send('GET', '/faults')) as { recent: { method: string; path: string; latency_ms: number }[] }).recent;
  const codes = async (crId: string) => ((await send('GET', `/sms?patient_id=${encodeURIComponent(crId)}`)) as { otp: string }[]).map((m) => m.otp);
  return {
    latency: async (ms) => void (await send('POST', '/faults', { latency_ms: ms })),
    profile: async (name) => void (await send('POST', '/faults', { profile: name })),
    clear: async () => void (await send('DELETE', '/faults')),
    smsCount: async (crId) => (await codes(crId)).length,
    nextCode: async (crId, seen, everyMs = 50) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const all = await codes(crId);
        if (all.length > seen) return all.at(-1) as string;
        if (Date.now() > deadline) throw new Error('no SMS code arrived');
        await new Promise((r) => setTimeout(r, everyMs));
      }
    },
    lastEligibilityLatency: async () => {
      const call = (await recent()).filter((d) => d.method === 'GET' && d.path === '/api/v1/patients/eligibility').at(-1);
      if (call === undefined) throw new Error('the sandbox recorded no eligibility call');
      return call.latency_ms;
    },
    calls: recent,
    wardSeed: async (seed) => void (await send('POST', '/faults', { profile: 'ward', seed })),
  };
}

export const crIdOf = (nationalId: string) => PATIENTS.find((p) => p.nationalId === nationalId)!.crId;

/** Past the first-run screen (training on the sandbox is preselected) to the look-up. */
export async function setUp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const idNumber = page.getByRole('textbox', { name: 'ID number' });
  const save = page.getByRole('button', { name: 'Save and sign in' });
  await idNumber.or(save).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  if (await save.isVisible()) await save.click();
  await idNumber.waitFor({ timeout: STEP_TIMEOUT_MS });
}

