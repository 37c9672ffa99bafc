// client_overhead_ratio: what the exchange client (electron/payer) costs per request over a raw
// undici request to the same sandbox route, in the same run. The route is the eligibility read
// (GET /api/v1/patients/eligibility, the station's most frequent call). The sandbox runs in its
// own process, as `npm run sandbox` does, so the station's process does only the client's work.
// Both sides hold a token fetched beforehand, keep-alive connections from an undici Pool with the
// same settings, and read the whole answer as JSON; the client also validates it, normalises it to
// its domain type, builds its headers and deadline and reports telemetry. Runs are interleaved
// (the side going first alternates) after a warm-up; the ratio is the median client request over
// the median raw request.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import type { MetricSpec } from '../metric';
import { median } from '../stats';
import { createExchangeClient } from '../../electron/payer';

const WARMUP = 400;
const ROUNDS = 4000;
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const credentials = { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' };
const query = { identification_number: '30000001', identification_type: 'National ID' } as const;

async function startSandboxProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron/sandbox/cli.ts'), '--port', '0', '--json'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the sandbox exited (${String(code)}) before it listened`);
  });
  const first = (async () => {
    for await (const line of lines) return JSON.parse(line) as { url?: string; error?: { message: string } };
    throw new Error('the sandbox printed nothing');
  })();
  const printed = await Promise.race([first, exited]);
  if (printed.url === undefined) throw new Error(`the sandbox did not start: ${printed.error?.message ?? 'no url'}`);
  return { url: printed.url, child };
}

export const specs: readonly MetricSpec[] = [
  { name: 'client_overhead_ratio', unit: 'ratio', goal: '<= 1.15' },
  { name: 'client_eligibility_median_ms', unit: 'ms', goal: 'context for client_overhead_ratio' },
  { name: 'raw_eligibility_median_ms', unit: 'ms', goal: 'context for client_overhead_ratio' },
];

export default async function clientOverhead(report: (name: string, value: number) => void): Promise<void> {
  const { url, child } = await startSandboxProcess();
  const client = createExchangeClient({ baseUrl: url, credentials });
  const pool = new Pool(new URL(url).origin, { connections: 8, keepAliveTimeout: 30_000 });
  try {
    await client.auth.authenticate();
    const tokenAnswer = await pool.request({
      method: 'POST',
      path: '/api/v1/tenants/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: credentials.clientId, client_secret: credentials.clientSecret }).toString(),
    });
    const { access_token: token } = (await tokenAnswer.body.json()) as { access_token: string };
    const path = `/api/v1/patients/eligibility?${new URLSearchParams(query).toString()}`;
    const headers = { accept: 'application/json', authorization: `Bearer ${token}` };

    const viaClient = async (): Promise<number> => {
      const started = performance.now();
      const eligibility = await client.eligibility.check(query);
      const took = performance.now() - started;
      if (!eligibility.covered) throw new Error('the client read the member as not covered');
      return took;
    };
    const raw = async (): Promise<number> => {
      const started = performance.now();
      const answer = await pool.request({ method: 'GET', path, headers });
      const body = (await answer.body.json()) as { statusCode?: string };
      const took = performance.now() - started;
      if (answer.statusCode !== 200 || body.statusCode !== '10') throw new Error(`raw eligibility answered ${answer.statusCode}`);
      return took;
    };

    for (let i = 0; i < WARMUP; i++) {
      await viaClient();
      await raw();
    }
    const clientTimes: number[] = [];
    const rawTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        clientTimes.push(await viaClient());
        rawTimes.push(await raw());
      } else {
        rawTimes.push(await raw());
        clientTimes.push(await viaClient());
      }
    }
    const clientMedian = median(clientTimes);
    const rawMedian = median(rawTimes);
    const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
    report('client_overhead_ratio', round(clientMedian / rawMedian, 3));
    report('client_eligibility_median_ms', round(clientMedian, 3));
    report('raw_eligibility_median_ms', round(rawMedian, 3));
  } finally {
    await Promise.allSettled([client.close(), pool.close()]);
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}
