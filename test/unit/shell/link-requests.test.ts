// Issue 20, defect 8: the link view judged hosts by their spelling, so a name that resolves to
// 127.0.0.1 reached any loopback port through the page's loopback permission. The guard now judges
// a name by the addresses the link session's own resolver gives (a fake of session.resolveHost).
import { describe, expect, it } from 'vitest';
import type { WebRequestApi } from '../../../electron/main/electron-api';
import { guardLinkRequests, judgeLinkRequest, type ResolveHost } from '../../../electron/main/link-requests';
import { normaliseOrigins } from '../../../electron/main/origins';
import { asApi, FakeSession, fakeDns, recordingLog } from './fake-electron';

const PAYER = 'https://ekyc.example.com';
// A payer name in the allowlist whose DNS was turned to this machine, and one the facility reaches over its own network.
const REBOUND_PAYER = 'https://portal.rebound.example';
const PRIVATE_PAYER = 'https://exchange.facility.example';
const allowed = normaliseOrigins([PAYER, REBOUND_PAYER, PRIVATE_PAYER, 'http://127.0.0.1:4010']);
const ports = [18065];

const dns: Record<string, string[]> = {
  'rebind.attacker.example': ['127.0.0.1'],
  'also-home.attacker.example': ['93.184.216.99', '127.0.0.1'],
  'v6-home.attacker.example': ['::1'],
  'mapped-home.attacker.example': ['::ffff:127.0.0.1'],
  'printer.ward.example': ['10.20.0.7'],
  'anywhere.attacker.example': ['0.0.0.0'],
  'cdn.example.net': ['93.184.216.34'],
  'ekyc.example.com': ['203.0.113.10'],
  'portal.rebound.example': ['127.0.0.1'],
  'exchange.facility.example': ['10.8.0.20'],
  'mapped-hex-home.attacker.example': ['::ffff:7f00:1'],
  'mapped-printer.attacker.example': ['::ffff:a14:7'],
};
const resolve: ResolveHost = async (host) => {
  const addresses = dns[host];
  if (addresses === undefined) throw new Error('ERR_NAME_NOT_RESOLVED');
  return addresses;
};
const judge = (url: string) => judgeLinkRequest(url, allowed, ports, resolve);

describe('the link session’s request guard, by where a host leads', () => {
  it('holds a name that resolves to this machine to the device service’s port, like the loopback it is', async () => {
    for (const host of ['rebind.attacker.example', 'also-home.attacker.example', 'v6-home.attacker.example', 'mapped-home.attacker.example', 'mapped-hex-home.attacker.example']) {
      expect(await judge(`http://${host}:8080/admin`), host).toEqual({ allowed: false, reason: 'loopback port' });
      expect(await judge(`ws://${host}:9222/devtools/browser`), host).toEqual({ allowed: false, reason: 'loopback port' });
      expect(await judge(`http://${host}:18065/status`), host).toEqual({ allowed: true });
    }
  });

  it('judges an address by its value, however it is written: the IPv4-mapped loopback [::ffff:7f00:1] reached any port', async () => {
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:0:0:1]', '127.1', '0x7f.0.0.1', '2130706433']) {
      expect(await judge(`http://${host}:9222/json`), host).toEqual({ allowed: false, reason: 'loopback port' });
      expect(await judge(`http://${host}:18065/status`), host).toEqual({ allowed: true });
    }
    for (const host of ['[::ffff:10.0.0.5]', '[::ffff:c0a8:101]', '[::7f00:1]', '[::]', '[fd00::7]', '[fe80::1]', '100.64.0.1', '172.31.0.1']) {
      expect(await judge(`http://${host}/`), host).toEqual({ allowed: false, reason: 'private network' });
    }
    expect(await judge('http://mapped-printer.attacker.example/')).toEqual({ allowed: false, reason: 'private network' });
    expect(await judge('http://[2001:db8::1]/')).toEqual({ allowed: true });
    expect(await judge('http://172.32.0.1/')).toEqual({ allowed: true });
  });

  it('holds an allowlisted name to the same rule where it leads to this machine; a payer on the facility’s own network stays the administrator’s choice', async () => {
    expect(await judge(`${REBOUND_PAYER}/verify`)).toEqual({ allowed: false, reason: 'loopback port' });
    expect(await judge(`${PRIVATE_PAYER}/verify`)).toEqual({ allowed: true });
    expect(await judge('https://ekyc.example.com:8443/verify')).toEqual({ allowed: true });
  });

  it('cancels a name that leads into the hospital network, or nowhere', async () => {
    expect(await judge('http://printer.ward.example/')).toEqual({ allowed: false, reason: 'private network' });
    expect(await judge('http://anywhere.attacker.example:8080/')).toEqual({ allowed: false, reason: 'private network' });
    expect(await judge('https://no-such-name.example/')).toEqual({ allowed: false, reason: 'unresolved name' });
  });

  it('lets the allowlisted origins, public names and what is not a network request through, as before', async () => {
    expect(await judge(`${PAYER}/verify`)).toEqual({ allowed: true });
    expect(await judge('http://127.0.0.1:4010/authorize/1')).toEqual({ allowed: true });
    expect(await judge('https://cdn.example.net/app.js')).toEqual({ allowed: true });
    expect(await judge('http://localhost:18065/status')).toEqual({ allowed: true });
    expect(await judge('http://127.0.0.1:18066/status')).toEqual({ allowed: false, reason: 'loopback port' });
    expect(await judge('http://10.0.0.5/')).toEqual({ allowed: false, reason: 'private network' });
    expect(await judge('data:text/plain,hello')).toEqual({ allowed: true });
  });

  it('asks the link session’s own resolver, waits for it before the request goes, and cancels when it fails', async () => {
    const session = new FakeSession('idhini-link-test');
    const log = recordingLog();
    fakeDns.set('rebind.attacker.example', ['127.0.0.1']);
    guardLinkRequests(asApi<WebRequestApi>(session.webRequest), {
      allowedOrigins: () => allowed,
      deviceServicePorts: () => ports,
      resolveHost: async (host) => (await session.resolveHost(host)).endpoints.map((e) => e.address),
      log,
    });
    expect(await session.send('http://rebind.attacker.example:9222/json')).toBe(false);
    expect(await session.send('http://rebind.attacker.example:18065/status')).toBe(true);
    expect(await session.send('https://unknown.attacker.example/')).toBe(false);
    expect(await session.send('https://cdn.example.net/app.js', 'script')).toBe(true);
    expect(session.resolved).toEqual(['rebind.attacker.example', 'rebind.attacker.example', 'unknown.attacker.example', 'cdn.example.net']);
    expect(log.lines.map((l) => l.fields.reason)).toEqual(['loopback port', 'unresolved name']);
  });
});
