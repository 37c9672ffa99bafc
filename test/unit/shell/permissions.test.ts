import { describe, expect, it } from 'vitest';
import { LAN_PERMISSIONS, LOOPBACK_PERMISSION, applyPermissionPolicy } from '../../../electron/main/permissions';
import { normaliseOrigins } from '../../../electron/main/origins';
import type { SessionApi } from '../../../electron/main/electron-api';
import { FakeSession, asApi, fakeEvent, recordingLog } from './fake-electron';

// A sample of what electron.d.ts lists; the Local Network Access names are tested on their own.
const others = ['media', 'geolocation', 'notifications', 'clipboard-read', 'hid', 'serial', 'usb', 'openExternal', 'fullscreen', 'pointerLock', 'display-capture', 'unknown'];
const payer = 'https://payer.example.com';

describe('permission policy', () => {
  it('knows the Local Network Access names Electron 45 types declare: the loopback one, and the two reaching the LAN', () => {
    expect([LOOPBACK_PERMISSION, ...LAN_PERMISSIONS].sort()).toEqual(['local-network', 'local-network-access', 'loopback-network']);
  });

  describe('the station session (no Local Network grant)', () => {
    const session = new FakeSession('station');
    applyPermissionPolicy(asApi<SessionApi>(session), { label: 'station', log: recordingLog() });

    it.each([...others, LOOPBACK_PERMISSION, ...LAN_PERMISSIONS])('denies %s by request and by check', async (permission) => {
      expect(await session.request(permission, 'app://idhini/index.html')).toBe(false);
      expect(session.check(permission, 'app://idhini')).toBe(false);
    });

    it('denies device access and downloads', () => {
      expect(session.deviceHandler?.({ deviceType: 'hid', origin: 'app://idhini' })).toBe(false);
      const event = fakeEvent({});
      session.emit('will-download', event, {}, {});
      expect(event.defaultPrevented).toBe(true);
    });
  });

  describe('an authorization link session', () => {
    const log = recordingLog();
    const session = new FakeSession('link');
    applyPermissionPolicy(asApi<SessionApi>(session), { label: 'authorization-link', localNetworkOrigins: () => normaliseOrigins([payer]), log });

    it('grants the loopback permission to the allowlisted payer origin, by request and by check', async () => {
      expect(await session.request(LOOPBACK_PERMISSION, `${payer}/ekyc/verify?req=1`)).toBe(true);
      expect(session.check(LOOPBACK_PERMISSION, payer)).toBe(true);
    });

    it.each([...LAN_PERMISSIONS])('denies %s (the hospital network) even to the allowlisted payer origin', async (permission) => {
      expect(await session.request(permission, `${payer}/ekyc/verify?req=1`)).toBe(false);
      expect(session.check(permission, payer)).toBe(false);
    });

    it.each([LOOPBACK_PERMISSION, ...LAN_PERMISSIONS])('denies %s to any other origin', async (permission) => {
      for (const url of ['https://payer.example.com.attacker.net/', 'https://payer.example.com@attacker.net/', 'http://payer.example.com/', 'https://payer.example.com:8443/', 'https://attacker.net/', 'file:///tmp/x.html', 'data:text/html,x']) {
        expect(await session.request(permission, url)).toBe(false);
        expect(session.check(permission, new URL(url).origin)).toBe(false);
      }
    });

    it('denies a foreign frame embedded by the payer page, and the payer page embedded by a foreign one', () => {
      expect(session.check('loopback-network', 'https://attacker.net', payer)).toBe(false);
      expect(session.check('loopback-network', payer, 'https://attacker.net')).toBe(false);
      expect(session.check('loopback-network', payer, payer)).toBe(true);
    });

    it.each(others)('still denies %s to the payer origin', async (permission) => {
      expect(await session.request(permission, `${payer}/ekyc`)).toBe(false);
      expect(session.check(permission, payer)).toBe(false);
    });

    it('follows the allowlist as settings change it', async () => {
      let allowed = normaliseOrigins([payer]);
      const changing = new FakeSession('link-2');
      applyPermissionPolicy(asApi<SessionApi>(changing), { label: 'authorization-link', localNetworkOrigins: () => allowed, log });
      expect(await changing.request('loopback-network', `${payer}/x`)).toBe(true);
      allowed = normaliseOrigins(['https://other-payer.example.org']);
      expect(await changing.request('loopback-network', `${payer}/x`)).toBe(false);
    });
  });
});
