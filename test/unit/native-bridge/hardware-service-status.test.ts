import { describe, expect, it } from 'vitest';
import { isLoopbackHost, tlsOptionsFor } from '../../../native-bridge/agent/loopback-http';
import { HardwareServiceStatusError, parseStatus, stateKind } from '../../../native-bridge/agent/status';

describe('reading GET /status of the hardware service', () => {
  it('reads the documented shape', () => {
    expect(
      parseStatus({
        workstationID: 'WS-1',
        devices: [{ deviceId: 'D1', status: 'connected', type: 'FINGERPRINT' }],
        card_readers: [{ deviceId: 'C1', status: 'connected', type: 'ACR1252' }],
        isAuthed: true,
        version: '1.0',
      }),
    ).toEqual({
      workstationID: 'WS-1',
      devices: [{ deviceId: 'D1', status: 'connected', type: 'FINGERPRINT' }],
      cardReaders: [{ deviceId: 'C1', status: 'connected', type: 'ACR1252' }],
      isAuthed: true,
      version: '1.0',
    });
  });

  it('accepts the variants clients meet: numeric ids, string booleans, missing lists', () => {
    expect(parseStatus({ workstationId: 1207, isAuthed: 'true', devices: ['SG-HU20'] })).toEqual({
      workstationID: '1207',
      devices: [{ deviceId: 'SG-HU20', status: '', type: '' }],
      cardReaders: [],
      isAuthed: true,
    });
    expect(parseStatus({ isAuthed: 'false' })).toEqual({ devices: [], cardReaders: [], isAuthed: false });
  });

  it('refuses a body that is not a status object', () => {
    expect(() => parseStatus([])).toThrow(HardwareServiceStatusError);
    expect(() => parseStatus('ok')).toThrow(/JSON object/);
  });

  it('puts "no scanner" before "agent not signed in"', () => {
    const base = { cardReaders: [], version: '1' };
    expect(stateKind({ ...base, devices: [], isAuthed: false })).toBe('no-scanner');
    expect(stateKind({ ...base, devices: [{ deviceId: 'a', status: 'unplugged', type: 'fp' }], isAuthed: true })).toBe('no-scanner');
    expect(stateKind({ ...base, devices: [{ deviceId: 'a', status: 'ready', type: 'fp' }], isAuthed: false })).toBe('agent-signed-out');
    expect(stateKind({ ...base, devices: [{ deviceId: 'a', status: '', type: '' }], isAuthed: true })).toBe('ready');
  });
});

describe('trusting a self-signed certificate', () => {
  it('only for this machine', () => {
    for (const host of ['localhost', '127.0.0.1', '127.0.0.53', '[::1]', 'station.localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['example.org', '10.0.0.5', 'localhost.example.org', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
    expect(tlsOptionsFor(new URL('https://localhost:18065'))).toEqual({ rejectUnauthorized: false });
    expect(tlsOptionsFor(new URL('wss://127.0.0.1:18065/ws/devices'))).toEqual({ rejectUnauthorized: false });
    expect(tlsOptionsFor(new URL('https://hw.example.org:18065'))).toEqual({ rejectUnauthorized: true });
  });
});

describe("telling the station's own service from the exchange's", () => {
  it('keeps the provider a service names', () => {
    expect(parseStatus({ isAuthed: true, provider: 'idhini-station' }).provider).toBe('idhini-station');
    expect(parseStatus({ isAuthed: true })).not.toHaveProperty('provider');
  });
});
