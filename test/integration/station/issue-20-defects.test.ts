// Issue 20's defects as they were reproduced against the station core, through its bridge, each
// failing on the code before the fix. The shell's and the device service's own defects are tested
// where they live: 5 in test/unit/shell/switches.test.ts, 6 in
// test/integration/native-bridge/local-device-service.test.ts, 8 in test/unit/shell/link-requests.test.ts,
// and 2 in browser mode in test/integration/browser-host/idle-lock.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStation, startWorld, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

/** An exchange whose token endpoint answers `token` and whose every other route says 200 {}. */
async function tokenStandIn(token: Record<string, unknown>): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    calls.push(`${request.method} ${request.url}`);
    request.resume();
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(request.url === '/api/v1/tenants/token' ? token : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('issue 20, defect by defect (the station core)', () => {
  it.each([
    ['a line break in the token', { access_token: 'eyJ.part\nX-Injected: 1', expires_in: 3600 }, 'access_token'],
    ['a negative lifetime', { access_token: 'eyJ.fine', expires_in: -1 }, 'expires_in'],
  ])('7 — an unusable token answer (%s) is refused at sign-in with its own error, and the station stays signed out', async (_what, token, field) => {
    const exchange = await tokenStandIn(token);
    try {
      const s = await openStation({ databasePath: join(world.dir.path, `token-${field}.db`), sandboxUrl: exchange.url, signIn: false });
      try {
        const refused = await s.refused('facility.signIn', { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' });
        expect(refused).toMatchObject({ code: 'SIGN_IN_TOKEN_UNUSABLE', retryable: false, details: { field } });
        expect((await s.ok('station.status', {})).signedIn).toBe(false);
        expect((await s.ok('audit.read', { action: 'facility.signIn' })).items[0]).toMatchObject({ outcome: 'failed', errorCode: 'SIGN_IN_TOKEN_UNUSABLE' });
        expect(exchange.calls).toEqual(['POST /api/v1/tenants/token']);
      } finally {
        await s.station.stop();
      }
    } finally {
      await exchange.close();
    }
  });
});
