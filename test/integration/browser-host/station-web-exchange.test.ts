// `npm run station:web -- --port N --exchange URL --client-id ID --client-secret-file F` as
// contracts.md fixes it, spawned as a child process against a stand-in exchange on loopback: it
// signs in with the file's secret (the stand-in sees the token request), starts with training mode
// off and no sandbox, prints its ready line, and the secret shows nowhere. Refusals (plain http off
// loopback, a secret on the command line, a wrong secret) exit with a clear message.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/station-web-runtime';
import { startWireRecorder, type RecordedRequest, type WireRecorder } from '../../support/wire-recorder';
import { connectBridge, secretOf, type BridgeClient } from './bridge-client';
import { startStationWeb, urlIn, type StationWebProcess } from '../../support/station-web-process';

const CLIENT_ID = 'FID-00-000009-0-client';
const SECRET = 'stand-in-secret-5f2c81d0e7';
const FACILITY = { code: 'FID-00-000009-0', name: 'Kilifi Test Clinic', agent: '22334455' };

/** The token endpoint as the exchange answers it: 201 for these credentials, 401 INVALID_CLIENT otherwise. */
function tokenStandIn(request: RecordedRequest) {
  if (request.path !== '/api/v1/tenants/token') return { status: 404, json: { error: 'NOT_FOUND', message: `no route ${request.method} ${request.path}`, trace_id: 'stand-in' } };
  const fields = request.body.encoding === 'form' ? request.body.fields : {};
  if (fields.client_id?.[0] === CLIENT_ID && fields.client_secret?.[0] === SECRET) {
    return { status: 201, json: { access_token: 'stand-in-access-token', expires_in: 3600, token_type: 'Bearer' } };
  }
  return { status: 401, json: { error: 'INVALID_CLIENT', message: 'wrong client_id or client_secret', trace_id: 'stand-in' } };
}

let dir: string;
let secretFile: string;
let dataDir: string;
let exchange: WireRecorder;
let station: StationWebProcess;
let bridge: BridgeClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idhini-station-web-exchange-'));
  secretFile = join(dir, 'client-secret');
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
  dataDir = join(dir, 'data');
  exchange = await startWireRecorder({ standIn: tokenStandIn });
  station = await startStationWeb(
    [
      ...['--port', '0', '--exchange', exchange.url, '--client-id', CLIENT_ID, '--client-secret-file', secretFile],
      ...['--facility-code', FACILITY.code, '--facility-name', FACILITY.name, '--agent-id', FACILITY.agent],
      ...['--device-service-port', String(await freePort()), '--data-dir', dataDir],
      // Outside training the station opens with a staff member's PIN.
      ...['--staff', 'Ward nurse:2468'],
    ],
    1,
  );
  const launchUrl = urlIn(station.lines[0]);
  bridge = await connectBridge(new URL(launchUrl).origin, secretOf(launchUrl));
  await bridge.invoke('station.unlock', { pin: '2468' });
}, 150_000);

afterAll(async () => {
  bridge?.close();
  await station?.stop();
  await exchange?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run station:web -- --port N --exchange URL --client-id ID --client-secret-file F', () => {
  it('prints one ready line: the station’s URL with its secret, naming the exchange', () => {
    expect(station.lines).toHaveLength(1);
    expect(station.lines[0]).toMatch(new RegExp(`^Idhini station \\(browser mode, exchange ${exchange.url} as ${CLIENT_ID}\\) ready at http://127\\.0\\.0\\.1:\\d+/#k=[A-Za-z0-9_-]{32,}$`));
  });

  it('signed in with the secret from the file: the stand-in saw the form-encoded token request', () => {
    const tokens = exchange.records.filter((r) => r.path === '/api/v1/tenants/token');
    expect(tokens.length).toBeGreaterThanOrEqual(1);
    expect(tokens[0]).toMatchObject({ method: 'POST', body: { encoding: 'form', fields: { client_id: [CLIENT_ID], client_secret: [SECRET] } }, answer: { status: 201 } });
  });

  it('runs signed in as that facility, training mode off, on the exchange, nothing left to set', async () => {
    expect(await bridge.invoke('station.status', {})).toMatchObject({
      ok: true,
      value: { host: 'browser', trainingMode: false, signedIn: true, facility: { code: FACILITY.code, name: FACILITY.name } },
    });
    expect(await bridge.invoke('settings.get', {})).toMatchObject({
      ok: true,
      value: { exchangeBaseUrl: exchange.url, trainingMode: false, clientId: CLIENT_ID, credentialsStored: true, agentNationalId: FACILITY.agent, allowedLinkOrigins: [exchange.url], missing: [] },
    });
  });

  it('starts no sandbox: the exchange’s origin is the only frame source, and nothing asks for /sandbox', async () => {
    const response = await fetch(new URL('/', urlIn(station.lines[0])));
    await response.arrayBuffer();
    expect(response.headers.get('content-security-policy')).toContain(`frame-src ${exchange.url}`);
    expect(exchange.records.filter((r) => r.path.startsWith('/sandbox'))).toEqual([]);
  });

  it('shows the secret nowhere: not on stdout or stderr, not in its log, not over the bridge', () => {
    expect(station.lines.join('\n')).not.toContain(SECRET);
    expect(station.stderr()).not.toContain(SECRET);
    const log = readFileSync(join(dataDir, 'station.log'), 'utf8');
    expect(log).toContain('facility signed in by the launcher');
    expect(log).not.toContain(SECRET);
    expect(bridge.received.join('\n')).not.toContain(SECRET);
  });
});

describe('npm run station:web against an exchange it must refuse', () => {
  const run = (args: string[]) =>
    promisify(execFile)('npm', ['run', '--silent', 'station:web', '--', '--port', '0', ...args], { timeout: 120_000 }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it('refuses plain http to a host that is not loopback, with a usage error and exit code 2', async () => {
    const { code, stdout, stderr } = await run(['--exchange', 'http://exchange.example.org', '--client-id', CLIENT_ID, '--client-secret-file', secretFile]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^station:web: --exchange: plain http is accepted only on loopback \(127\.0\.0\.0\/8, ::1, localhost\); use https for exchange\.example\.org\nusage:/);
    expect(stderr).not.toContain(SECRET);
  }, 150_000);

  it('refuses a secret on the command line', async () => {
    const { code, stderr } = await run(['--exchange', exchange.url, '--client-id', CLIENT_ID, '--client-secret', SECRET]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--client-secret is not accepted/);
    expect(stderr).not.toContain(SECRET);
  }, 150_000);

  it('stops with the exchange’s refusal when the secret is wrong, and prints no ready line', async () => {
    const wrong = join(dir, 'wrong-secret');
    writeFileSync(wrong, 'not-the-secret\n');
    const { code, stdout, stderr } = await run(['--exchange', exchange.url, '--client-id', CLIENT_ID, '--client-secret-file', wrong, '--device-service-port', String(await freePort())]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`station:web: could not sign in to ${exchange.url}: The exchange refused the facility’s client id or secret`));
    expect(stderr).not.toContain('not-the-secret');
  }, 150_000);
});
