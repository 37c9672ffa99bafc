// The training runtime behind `npm run station:web` and `npm start` (scripts/station-web-runtime.ts):
// the core runs the local device service the sandbox's page captures from, on the port the sandbox
// was told; its CORS follows the link allowlist in settings, and in training always lets the sandbox in.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTrainingStation, type TrainingStation } from '../../../scripts/station-web-runtime';
import { connectBridge, secretOf, type BridgeClient } from './bridge-client';

const PAYER = 'https://payer.example.com';

let dir: string;
let running: TrainingStation;
let client: BridgeClient;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-training-runtime-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Idhini</title>');
  // The link allowlist is the administrator's: station:web --admin provisions one, who signs in.
  running = await startTrainingStation({ port: 0, sandboxPort: 0, rendererDir: dir, logDestination: { write: () => undefined }, staff: [{ name: 'IT officer', role: 'administrator', pin: '771199' }] });
  client = await connectBridge(running.host.url, secretOf(running.launchUrl));
  await client.invoke('station.unlock', { pin: '771199' });
});
afterAll(async () => {
  client.close();
  await running.close();
  await rm(dir, { recursive: true, force: true });
});

async function status(origin: string): Promise<number> {
  const response = await fetch(`${running.deviceService.url!}/status`, { headers: { origin } });
  await response.arrayBuffer();
  return response.status;
}

describe('training runtime: the local device service', () => {
  it('runs, allowing the sandbox page, and readers.state says so', async () => {
    const readers = await client.invoke('readers.state', {});
    expect(readers).toMatchObject({ ok: true, value: { localDeviceService: { state: 'running', url: running.deviceService.url, message: null }, reader: { virtual: true } } });
    expect(await status(running.sandbox.url)).toBe(200);
    expect(await status(PAYER)).toBe(403);
  });

  it('follows the link allowlist as settings change; the sandbox stays allowed in training', async () => {
    const url = running.deviceService.url;
    expect(await client.invoke('settings.update', { allowedLinkOrigins: [PAYER] })).toMatchObject({ ok: true });
    expect(running.deviceService.url).toBe(url);
    expect(await status(PAYER)).toBe(200);
    expect(await status(running.sandbox.url)).toBe(200);
    expect(await status('https://elsewhere.example.com')).toBe(403);
  });
});

describe('training runtime: its data folder', () => {
  it('creates a data folder that does not exist yet, and writes its log and database there; trains on a ward’s network when asked', async () => {
    const dataDir = path.join(dir, 'first-run', 'data');
    const station = await startTrainingStation({ port: 0, sandboxPort: 0, rendererDir: dir, dataDir, profile: 'ward' });
    try {
      expect(existsSync(path.join(dataDir, 'station.log'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'station.db'))).toBe(true);
      expect(station.sandbox.context.faults.list().global).toMatchObject({ profile: 'ward' });
      expect(running.sandbox.context.faults.list().global).toMatchObject({ profile: null, latency_ms: 0 });
    } finally {
      await station.close();
    }
  });
});
