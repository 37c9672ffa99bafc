// The authorization page in real Chromium: what it shows, the device service being absent, and a
// capture from a stand-in device service authorizing the consent, with EKYC_COMPLETE posted to the
// parent page that embeds it. Screenshots go to a fresh temp dir (kept when IDHINI_SCREENSHOTS
// names a directory, for a human to look at).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { useChromium } from '../../support/browser-suite';
import { BIOMETRIC, Client, HOSPITAL, NID, STRANGER_TEMPLATE, crId, fingerprints, tokenFor } from './harness';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** A stand-in for the workstation's local device service: /status and /capture, CORS for the sandbox. */
class StandInDeviceService {
  readonly captures: unknown[] = [];
  template = '';
  allowedOrigin = '';
  readonly server = createServer((req, res) => {
    void (async () => {
      const origin = req.headers.origin;
      if (origin !== undefined && origin === this.allowedOrigin) {
        res.setHeader('access-control-allow-origin', origin);
        res.setHeader('access-control-allow-headers', 'content-type');
        res.setHeader('access-control-allow-methods', 'GET, POST');
      }
      if (req.method === 'OPTIONS') return res.writeHead(204).end();
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url === '/status') {
        return res.end(JSON.stringify({ workstationID: 'WS-TEST-01', devices: [{ deviceId: 'EMU-ZFM-1', status: 'READY', type: 'fingerprint' }], card_readers: [], isAuthed: true, version: 'test' }));
      }
      if (req.method === 'POST' && req.url === '/capture') {
        this.captures.push(JSON.parse(await readBody(req)));
        return res.end(JSON.stringify({ template: this.template, deviceId: 'EMU-ZFM-1', protocol: 'zfm', templateBytes: 512 }));
      }
      res.writeHead(404).end('{}');
    })();
  });
}

const chromium = useChromium({ renderer: false });
let context: BrowserContext;
let device: StandInDeviceService;
let deviceUrl: string;
let withDevice: RunningSandbox;
let withoutDevice: RunningSandbox;
let parentServer: Server;
let parentUrl: string;
let iframeSrc = '';
let shots: string;
const keepShots = process.env.IDHINI_SCREENSHOTS;

beforeAll(async () => {
  device = new StandInDeviceService();
  deviceUrl = await listen(device.server);
  withDevice = await startSandbox({ deviceServiceUrl: deviceUrl });
  device.allowedOrigin = withDevice.url;
  // A port that was free a moment ago and is closed now: no device service there.
  const probe = createServer();
  const closedUrl = await listen(probe);
  await close(probe);
  withoutDevice = await startSandbox({ deviceServiceUrl: closedUrl });
  parentServer = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><html><head><title>Station</title></head><body style="margin:0;background:#ccd">
<iframe id="ekyc" title="Fingerprint consent" src="${iframeSrc}" style="border:0;width:1024px;height:600px"></iframe>
<script>window.__messages = []; window.addEventListener('message', function (e) { window.__messages.push({ origin: e.origin, data: e.data }); });</script>
</body></html>`);
  });
  parentUrl = await listen(parentServer);
  shots = keepShots ?? mkdtempSync(join(tmpdir(), 'idhini-ekyc-'));
  mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await withDevice?.close();
  await withoutDevice?.close();
  await close(device.server);
  await close(parentServer);
  if (keepShots === undefined) rmSync(shots, { recursive: true, force: true });
});

let cspViolations: string[] = [];
async function newPage(): Promise<Page> {
  context = await chromium.browser.newContext({ viewport: { width: 1024, height: 600 } });
  const page = await context.newPage();
  cspViolations = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
  });
  return page;
}
afterEach(async () => {
  await context?.close();
});

async function biometricAuthorize(sandbox: RunningSandbox, nationalId = NID.covered) {
  const client = new Client(sandbox.url, await tokenFor(sandbox.url, HOSPITAL));
  const patientId = await crId(client, nationalId);
  const r = await client.post('/api/v1/claims/authorize', { patient_id: patientId, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
  expect(r.status).toBe(200);
  return { client, patientId, guid: r.body.guid as string, url: r.body.shaVerificationRequest.requestUrl as string };
}

async function messages(page: Page): Promise<{ origin: string; data: { type: string; status: string } }[]> {
  return page.evaluate(() => (globalThis as unknown as { __messages: { origin: string; data: { type: string; status: string } }[] }).__messages);
}

describe('the authorization page', () => {
  it('shows the masked name, the enrolled fingers and the time left, under a strict CSP', async () => {
    const { url } = await biometricAuthorize(withoutDevice);
    const page = await newPage();
    const response = await page.goto(url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toContain(`connect-src 'self' ${new URL(withoutDevice.context.config.deviceServiceUrl).origin}`);
    expect(csp).toContain('frame-ancestors');
    await expect.poll(() => page.locator('#patient-name').textContent()).toBe('W*** M*** K***');
    expect(await page.content()).not.toContain('Wanjiku');
    // Each finger in English and in Kiswahili, for the patient who reads either.
    const fingers = await page.getByRole('button', { pressed: false }).allTextContents();
    expect(fingers).toEqual(
      expect.arrayContaining(['Right thumb Kidole gumba cha kulia', 'Right index Kidole cha shahada cha kulia', 'Left thumb Kidole gumba cha kushoto', 'Left index Kidole cha shahada cha kushoto']),
    );
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Fingerprint consent Ridhaa kwa alama ya kidole');
    const left = (await page.locator('#time-left').textContent()) ?? '';
    expect(left).toMatch(/^(9|10):\d{2}$/);
    await page.screenshot({ path: join(shots, 'ekyc-no-device-service.png') });
    expect(cspViolations).toEqual([]);
  });

  it('says the device service is not running, and offers a retry', async () => {
    const { url } = await biometricAuthorize(withoutDevice);
    const page = await newPage();
    await page.goto(url);
    const status = page.getByRole('status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('device service is not running');
    expect(await status.textContent()).toContain('Huduma ya vifaa haifanyi kazi');
    const retry = page.getByRole('button', { name: 'Retry' });
    expect(await retry.isVisible()).toBe(true);
    await retry.click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('device service is not running');
    expect(cspViolations).toEqual([]);
  });

  it('authorizes with a matching capture from the device service and tells the embedding page', async () => {
    const { client, patientId, guid, url } = await biometricAuthorize(withDevice);
    const [finger] = await fingerprints(new Client(withDevice.url), patientId);
    device.template = finger?.template ?? '';
    iframeSrc = url;
    const page = await newPage();
    await page.goto(parentUrl);
    const frame = page.frameLocator('#ekyc');
    await expect.poll(() => frame.getByRole('status').textContent(), { timeout: 10_000 }).toContain('Consent confirmed');
    const look = await client.get('/api/v1/claims/authorizations', { guid });
    expect(look.body.status).toBe('AUTHORIZED');
    await expect.poll(() => messages(page)).toEqual([{ origin: withDevice.url, data: { type: 'EKYC_COMPLETE', status: 'AUTHORIZED' } }]);
    expect(device.captures.at(-1)).toEqual({ hint: { patient_id: patientId } });
    expect(await frame.getByRole('button', { name: 'Right thumb' }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'ekyc-authorized-in-iframe.png') });
    expect(cspViolations).toEqual([]);
  });

  it('asks for the chosen finger, counts non-matching captures down and rejects after the third', async () => {
    const { guid, url, client } = await biometricAuthorize(withDevice);
    device.template = STRANGER_TEMPLATE;
    iframeSrc = url;
    const page = await newPage();
    await page.goto(parentUrl);
    const frame = page.frameLocator('#ekyc');
    const status = frame.getByRole('status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('2 attempts left');
    await frame.getByRole('button', { name: 'Left index' }).click();
    expect(await frame.getByRole('button', { name: 'Left index' }).getAttribute('aria-pressed')).toBe('true');
    await frame.getByRole('button', { name: 'Scan again' }).click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('1 attempt left');
    expect(device.captures.at(-1)).toMatchObject({ finger: 'LEFT_INDEX' });
    await page.screenshot({ path: join(shots, 'ekyc-not-matched.png') });
    await frame.getByRole('button', { name: 'Scan again' }).click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('three fingerprints did not match');
    expect((await client.get('/api/v1/claims/authorizations', { guid })).body.status).toBe('REJECTED');
    await expect.poll(() => messages(page)).toEqual([{ origin: withDevice.url, data: { type: 'EKYC_COMPLETE', status: 'REJECTED' } }]);
    await page.screenshot({ path: join(shots, 'ekyc-rejected.png') });
  });

  it('shows the expiry when sandbox time runs out, and tells the embedding page', async () => {
    const { url } = await biometricAuthorize(withoutDevice);
    iframeSrc = url;
    const page = await newPage();
    await page.goto(parentUrl);
    const frame = page.frameLocator('#ekyc');
    await expect.poll(() => frame.getByRole('status').textContent(), { timeout: 10_000 }).toContain('not running');
    await new Client(withoutDevice.url).post('/sandbox/clock', { advance_ms: 10 * 60 * 1000 });
    await expect.poll(() => frame.getByRole('status').textContent(), { timeout: 10_000 }).toContain('expired');
    expect(await frame.locator('#time-left').textContent()).toBe('0:00');
    await expect.poll(() => messages(page)).toEqual([{ origin: withoutDevice.url, data: { type: 'EKYC_COMPLETE', status: 'EXPIRED' } }]);
    await page.screenshot({ path: join(shots, 'ekyc-expired.png') });
  });

  it('refuses to be framed by an origin outside frame-ancestors', async () => {
    const strict = await startSandbox({ deviceServiceUrl: deviceUrl, frameAncestors: ["'self'"] });
    try {
      const { url } = await biometricAuthorize(strict);
      iframeSrc = url;
      const page = await newPage();
      await page.goto(parentUrl);
      await page.waitForTimeout(500);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(await frame?.locator('#title').count()).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('answers an unknown or tampered link with a plain error page', async () => {
    const { url } = await biometricAuthorize(withoutDevice);
    const tampered = url.replace(/t=[^&]+/, 't=WRONG');
    const page = await newPage();
    const response = await page.goto(tampered);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('status').textContent()).toContain('not valid');
  });
});
