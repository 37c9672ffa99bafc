// Who may do what at a station, through the station core's bridge: staff PINs (salted slow hashes,
// five wrong tries lock the station out for a minute, across a restart), another nurse's PIN
// switching the user, the audit naming who took the consent and who submitted the claim, the visit
// creation naming who and where, the administrator's settings, and where the client secret may go.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import type { StationProvisioning } from '../../../electron/station/provisioning';
import { FACILITIES, openStation, presentAtPage, startWorld, stepOf, visitOpenedBy, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

const AMINA = { name: 'Amina Wekesa', role: 'nurse' as const, pin: '4821', nationalId: '23456789' };
const BARAKA = { name: 'Baraka Otieno', role: 'nurse' as const, pin: '9034' };
const IT_OFFICER = { name: 'IT officer', role: 'administrator' as const, pin: '771199' };

function provisioning(extra: Partial<StationProvisioning> = {}): StationProvisioning {
  return { source: 'launcher', settings: {}, staff: [AMINA, BARAKA, IT_OFFICER], ...extra };
}

/** An exchange client whose createVisit requests the test can read. */
function recordingFactory(visits: Record<string, unknown>[]) {
  return (options: ExchangeClientOptions): ExchangeClient => {
    const client = createExchangeClient(options);
    // The client is a frozen plain object: a copy with one operation wrapped.
    const createVisit: ExchangeClient['claims']['createVisit'] = (input, ...rest) => {
      visits.push({ ...input });
      return client.claims.createVisit(input, ...rest);
    };
    return { ...client, claims: { ...client.claims, createVisit } };
  };
}

describe('staff PINs', () => {
  it('starts a training station signed in as the Training nurse (PIN 1234); a station outside training starts locked, nobody signed in', async () => {
    const training = await world.station();
    expect(await training.ok('station.status', {})).toMatchObject({ locked: false, staff: { name: 'Training nurse', role: 'nurse' } });
    const real = await world.station({ signIn: false, extra: { initialSettings: { exchangeBaseUrl: 'https://exchange.example.org' }, provisioning: provisioning() } });
    expect(await real.ok('station.status', {})).toMatchObject({ locked: true, staff: null, administratorExists: true });
    expect((await real.refused('patient.recent', {})).code).toBe('LOCKED');
    // A locked station answers its status (with the lock screen's language) and the sign-in, nothing else; the Training nurse does not exist outside training.
    expect((await real.refused('settings.get', {})).code).toBe('LOCKED');
    expect((await real.ok('station.status', {})).language).toBe('en');
    expect((await real.refused('station.unlock', { pin: '1234' })).code).toBe('PIN_WRONG');
    expect(await real.ok('station.unlock', { pin: AMINA.pin })).toMatchObject({ locked: false, staff: { name: AMINA.name, role: 'nurse' } });
  });

  it('locks the station out for a minute after five wrong PINs, even against the right one, and keeps counting across a restart', async () => {
    let now = Date.parse('2025-03-04T09:00:00Z');
    const databasePath = join(world.dir.path, 'lockout.db');
    const open = () => openStation({ databasePath, sandboxUrl: world.sandbox.url, signIn: false, extra: { clock: { now: () => now }, provisioning: provisioning() } });
    let s = await open();
    await s.ok('station.lock', {});
    const left: number[] = [];
    for (let i = 0; i < 4; i++) {
      const error = await s.refused('station.unlock', { pin: '0000' });
      expect(error.code).toBe('PIN_WRONG');
      left.push(error.details?.attemptsLeft ?? -1);
    }
    expect(left).toEqual([4, 3, 2, 1]);
    await s.station.stop();
    s = await open();
    const fifth = await s.refused('station.unlock', { pin: '0000' });
    expect(fifth).toMatchObject({ code: 'PIN_LOCKED', details: { retryAt: new Date(now + 60_000).toISOString() } });
    expect((await s.refused('station.unlock', { pin: AMINA.pin })).code).toBe('PIN_LOCKED');
    now += 60_001;
    expect(await s.ok('station.unlock', { pin: AMINA.pin })).toMatchObject({ locked: false, staff: { name: AMINA.name } });
    const audit = await s.ok('audit.read', { action: 'station.unlock', outcome: 'failed' });
    expect(audit.total).toBe(5);
  });

  it('stores PINs as salted scrypt hashes keyed with the pepper, never as the PIN', async () => {
    const s = await world.station({ extra: { provisioning: provisioning() } });
    const admin = await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect(admin.staff?.role).toBe('administrator');
    await s.ok('staff.add', { name: 'Chebet Rono', role: 'nurse', pin: '515051' });
    expect((await s.refused('staff.add', { name: 'Duplicate', role: 'nurse', pin: '515051' })).details?.field).toBe('pin');
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(world.dir.path, `station-${world.stations.length}.db`), { readonly: true });
    const rows = db.prepare('SELECT name, pin_hash FROM staff').all() as { name: string; pin_hash: string }[];
    db.close();
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) expect(row.pin_hash).toMatch(/^pscrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const salts = rows.map((r) => r.pin_hash.split('$')[4]);
    expect(new Set(salts).size).toBe(salts.length);
    expect(JSON.stringify(rows)).not.toMatch(/515051|4821|1234|771199/);
  });
});

describe('who did what', () => {
  it("a second nurse's PIN switches the user; the audit names who took the consent and who submitted the claim; the visit names who and where", async () => {
    const visits: Record<string, unknown>[] = [];
    const s = await world.station({ extra: { provisioning: provisioning(), exchangeClientFactory: recordingFactory(visits), deviceName: 'WARD-3-PC' } });
    await s.ok('station.lock', {});
    expect(await s.ok('station.unlock', { pin: AMINA.pin })).toMatchObject({ staff: { name: AMINA.name } });
    const cr = await world.control.crIdOf('30000002');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    await s.ok('consent.sendSms', { workflowId: consent.workflowId });
    await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    const visit = await visitOpenedBy(s, consent.workflowId);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ request_user_national_id: AMINA.nationalId, workstation_id: 'WS-IDHINI-TEST-01', device_name: 'WARD-3-PC', device_id: expect.stringMatching(/^idhini-[0-9a-f-]{36}$/) });

    // The next shift: Baraka's PIN at the lock takes over.
    await s.ok('station.lock', {});
    expect(await s.ok('station.unlock', { pin: BARAKA.pin })).toMatchObject({ locked: false, staff: { name: BARAKA.name } });
    await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
    await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
    expect((await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' })).state).toBe('submitted');

    const records = (await s.ok('audit.read', { pageSize: 500 })).items;
    const actorOf = (action: string) => records.find((r) => r.action === action && r.outcome === 'succeeded')?.actor;
    expect(actorOf('exchange.claims.createVisit')).toBe(AMINA.name);
    expect(actorOf('exchange.claims.submit')).toBe(BARAKA.name);
    const amina = (await s.ok('station.status', {})).staff;
    expect(amina?.name).toBe(BARAKA.name);
    expect(records.find((r) => r.action === 'staff.switch')).toMatchObject({ actor: BARAKA.name, summary: expect.stringMatching(/^took over from st_/) });
    expect((await s.ok('audit.read', { actor: AMINA.name, pageSize: 500 })).items.every((r) => r.actor === AMINA.name)).toBe(true);
    expect((await s.ok('audit.verify', {})).intact).toBe(true);
  });
});

describe("the administrator's settings", () => {
  it('refuses a nurse what decides where secrets go, lets her change the ward settings, and lets the administrator', async () => {
    const s = await world.station({ extra: { provisioning: provisioning() } });
    await s.ok('station.unlock', { pin: AMINA.pin });
    for (const update of [{ exchangeBaseUrl: 'https://exchange.example.org' }, { allowedLinkOrigins: ['https://evil.example'] }, { trainingMode: false }, { idleLockMinutes: 240 }]) {
      expect(await s.refused('settings.update', update)).toMatchObject({ code: 'ADMINISTRATOR_REQUIRED', details: { field: Object.keys(update)[0] } });
    }
    expect((await s.refused('staff.list', {})).code).toBe('ADMINISTRATOR_REQUIRED');
    expect((await s.ok('settings.update', { language: 'sw', defaultServiceType: 'INPATIENT' })).language).toBe('sw');
    // The same value again changes nothing and needs no one.
    await s.ok('settings.update', { allowedLinkOrigins: [world.sandbox.url] });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect((await s.ok('settings.update', { idleLockMinutes: 15 })).idleLockMinutes).toBe(15);
    expect((await s.ok('staff.list', {})).items.map((m) => m.name)).toEqual(expect.arrayContaining([AMINA.name, BARAKA.name, 'Training nurse']));
    // https, or plain http to this machine in training only.
    expect(await s.refused('settings.update', { exchangeBaseUrl: 'http://exchange.example.org' })).toMatchObject({ code: 'VALIDATION', details: { field: 'exchangeBaseUrl' } });
    expect(await s.refused('settings.update', { trainingMode: false, exchangeBaseUrl: 'http://127.0.0.1:9' })).toMatchObject({ code: 'VALIDATION' });
  });

  it('keeps what the provisioning file fixes read-only, for the administrator too', async () => {
    const s = await world.station({ extra: { provisioning: { ...provisioning(), source: 'file', settings: { allowedLinkOrigins: [world.sandbox.url], idleLockMinutes: 20 } } } });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect(await s.ok('settings.get', {})).toMatchObject({ provisioned: ['allowedLinkOrigins', 'idleLockMinutes'], idleLockMinutes: 20 });
    expect(await s.refused('settings.update', { allowedLinkOrigins: ['https://evil.example'] })).toMatchObject({ code: 'PROVISIONED', details: { field: 'allowedLinkOrigins' } });
    expect((await s.ok('settings.update', { language: 'sw' })).language).toBe('sw');
  });

  it('makes the first administrator, signed in at once, only on a station that has none and is not in training', async () => {
    const training = await world.station();
    expect((await training.refused('staff.add', { name: 'Me', role: 'administrator', pin: '123456' })).code).toBe('ADMINISTRATOR_REQUIRED');
    expect((await training.refused('station.setUpAdministrator', { name: 'Me', pin: '123456' })).code).toBe('WRONG_STATE');
    const fresh = await world.station({ signIn: false, extra: { initialSettings: { exchangeBaseUrl: 'https://exchange.example.org' } } });
    expect((await fresh.ok('station.status', {})).administratorExists).toBe(false);
    expect((await fresh.refused('staff.add', { name: 'A nurse first', role: 'nurse', pin: '222222' })).code).toBe('LOCKED');
    expect((await fresh.refused('station.setUpAdministrator', { name: 'IT officer', pin: '9090' })).code).toBe('VALIDATION');
    expect(await fresh.ok('station.setUpAdministrator', { name: 'IT officer', pin: '909090' })).toMatchObject({ locked: false, staff: { name: 'IT officer', role: 'administrator' }, administratorExists: true });
    expect((await fresh.refused('station.setUpAdministrator', { name: 'Another', pin: '808080' })).code).toBe('WRONG_STATE');
    await fresh.ok('station.lock', {});
    expect(await fresh.ok('station.unlock', { pin: '909090' })).toMatchObject({ staff: { role: 'administrator' }, administratorExists: true });
  });
});

describe('the client secret, bound to the origin that accepted it', () => {
  it('is forgotten when the administrator moves the exchange, and is given again only by the administrator', async () => {
    // A station on another exchange (the launcher's loopback stand-in: here the sandbox), training off.
    const s = await world.station({
      signIn: false,
      extra: {
        initialSettings: { exchangeBaseUrl: world.sandbox.url, trainingMode: false, facilityCode: FACILITIES.hospital.code, facilityName: FACILITIES.hospital.name, agentNationalId: '22334455', allowedLinkOrigins: [world.sandbox.url] },
        provisioning: provisioning({ allowLoopbackHttp: true }),
      },
    });
    await s.station.signInFacility({ clientId: 'demo-hospital', clientSecret: FACILITIES.hospital.clientSecret });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect((await s.ok('settings.get', {})).credentialsStored).toBe(true);
    await s.ok('station.unlock', { pin: AMINA.pin });
    expect((await s.refused('facility.signIn', { clientId: 'demo-hospital', clientSecret: 'typed-by-a-nurse' })).code).toBe('ADMINISTRATOR_REQUIRED');
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    const moved = await s.ok('settings.update', { exchangeBaseUrl: world.sandbox.url.replace('127.0.0.1', 'localhost') });
    expect(moved).toMatchObject({ credentialsStored: false, missing: ['clientId'] });
    expect((await s.ok('station.status', {})).signedIn).toBe(false);
    expect((await s.refused('facility.signIn', {})).code).toBe('SETTINGS_MISSING');
    // Back at the first address the secret is still gone: it went with the move.
    await s.ok('settings.update', { exchangeBaseUrl: world.sandbox.url });
    expect((await s.refused('facility.signIn', {})).code).toBe('SETTINGS_MISSING');
    await s.ok('facility.signIn', { clientId: 'demo-hospital', clientSecret: FACILITIES.hospital.clientSecret });
    expect((await s.ok('settings.get', {})).credentialsStored).toBe(true);
  });
});

describe('no command sequence sends the stored secret to a new address', () => {
  it('holds for any sequence from the station window, every PIN known, a restart included', { timeout: 120_000 }, async () => {
    const { createServer } = await import('node:http');
    const fc = (await import('fast-check')).default;
    const { memorySecretStore } = await import('../../../electron/station');
    const SECRET = FACILITIES.hospital.clientSecret;
    // The new address: answers everything, and keeps what reaches it.
    const seen: string[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push(`${request.method} ${request.url} ${JSON.stringify(request.headers)} ${body}`);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer', expires_in: 3600 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const newAddress = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const sameServerOtherOrigin = world.sandbox.url.replace('127.0.0.1', 'localhost');
    const commands = [
      ['station.unlock', { pin: IT_OFFICER.pin }],
      ['station.unlock', { pin: AMINA.pin }],
      ['station.unlock', { pin: '0000' }],
      ['station.lock', {}],
      ['settings.update', { exchangeBaseUrl: newAddress }],
      ['settings.update', { exchangeBaseUrl: newAddress, trainingMode: true }],
      ['settings.update', { exchangeBaseUrl: sameServerOtherOrigin }],
      ['settings.update', { exchangeBaseUrl: world.sandbox.url }],
      ['settings.update', { trainingMode: true }],
      ['settings.update', { trainingMode: false }],
      ['settings.update', { allowedLinkOrigins: [newAddress] }],
      ['settings.update', { facilityCode: 'FID-00-000002-0' }],
      ['facility.signIn', {}],
      ['facility.signIn', { clientId: 'demo-hospital' }],
      ['facility.signOut', {}],
      ['facility.signOut', { forgetCredentials: true }],
      ['patient.lookUp', { idType: 'National ID', idNumber: '30000001' }],
    ] as const;
    const index = (name: string, input: object) => commands.findIndex(([n, i]) => n === name && JSON.stringify(i) === JSON.stringify(input));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: commands.length - 1 }), { minLength: 1, maxLength: 10 }), async (picks) => {
          run += 1;
          const secrets = memorySecretStore();
          const databasePath = join(world.dir.path, `secret-run-${run}.db`);
          const options = {
            databasePath,
            sandboxUrl: world.sandbox.url,
            secrets,
            signIn: false,
            extra: {
              initialSettings: { exchangeBaseUrl: world.sandbox.url, trainingMode: false, facilityCode: FACILITIES.hospital.code, facilityName: FACILITIES.hospital.name, agentNationalId: '22334455', allowedLinkOrigins: [world.sandbox.url] },
              provisioning: provisioning({ allowLoopbackHttp: true }),
            },
          };
          let s = await openStation(options);
          await s.station.signInFacility({ clientId: 'demo-hospital', clientSecret: SECRET });
          for (const pick of picks) {
            const [name, input] = commands[pick]!;
            await s.station.bridge.invoke(name, input as never);
          }
          await s.station.bridge.invoke('facility.signIn', {});
          await s.station.stop();
          // After a restart the stored secret is used again, for the origin that accepted it alone.
          s = await openStation(options);
          await s.station.bridge.invoke('station.unlock', { pin: IT_OFFICER.pin });
          await s.station.bridge.invoke('facility.signIn', {});
          await s.station.stop();
          return !seen.some((request) => request.includes(SECRET));
        }),
        {
          numRuns: 12,
          // The sequence the review's proof of concept used: the administrator moves the exchange, then a sign-in with the stored secret.
          examples: [[[index('station.unlock', { pin: IT_OFFICER.pin }), index('settings.update', { exchangeBaseUrl: newAddress, trainingMode: true }), index('facility.signIn', {})]]],
        },
      );
    } finally {
      server.close();
    }
  });
});

describe('a message from the authorization page', () => {
  it('is only a hint: a forged EKYC_COMPLETE leaves the workflow waiting until the exchange says AUTHORIZED', async () => {
    const s = await world.station();
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    const started = await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    // What the renderer does on a page's EKYC_COMPLETE (forged or not): it asks the station to look
    // the authorization up now. The look-up goes to the exchange, whose answer alone decides.
    for (let i = 0; i < 5; i++) {
      const view = await s.ok('consent.checkFingerprint', { workflowId: consent.workflowId });
      expect(view).toMatchObject({ state: 'verifying' });
      expect(stepOf(view)?.stage).toBe('awaiting-fingerprint');
    }
    expect((await s.refused('visit.open', { workflowId: consent.workflowId })).code).toBe('WRONG_STATE');
    // The exchange says AUTHORIZED once the patient's finger matched at the page: then, and only
    // then, and the visit opens in the same step.
    const template = await world.control.enrolledTemplate(await world.control.crIdOf('30000001'));
    await presentAtPage(stepOf(started)!.fingerprint!.link!.url, template);
    expect(await s.ok('consent.checkFingerprint', { workflowId: consent.workflowId })).toMatchObject({ state: 'visit-opened', verification: { stage: 'verified', verifiedBy: 'fingerprint' } });
  });
});
