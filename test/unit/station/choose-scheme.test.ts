// patient.chooseScheme for a member under two schemes, against a fake exchange: the choice is
// recorded without a call (the covers call needs a consent token), and a scheme the covers call
// could not name (no principal CR number or no policy number from the exchange) is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EligibilityScheme, ExchangeClient } from '../../../electron/payer';
import { createStation, memorySecretStore, nativeReaders, type Station } from '../../../electron/station';

const scheme = (over: Partial<EligibilityScheme>): EligibilityScheme => ({
  id: '2',
  name: 'SOCIAL HEALTH INSURANCE FUND',
  memberType: 'PRIMARY',
  covered: true,
  coverage: { start: '2025-07-01', end: '2026-06-30' },
  policyNumber: 'SHIF-1',
  principalCrNumber: 'CR-1',
  message: undefined,
  reason: undefined,
  possibleSolution: undefined,
  ...over,
});

function fakeExchange(schemes: EligibilityScheme[]) {
  const calls: string[] = [];
  const answer =
    <T>(operation: string, value: T) =>
    async () => {
      calls.push(operation);
      return value;
    };
  const empty = { items: [], count: 0, page: 1, pageSize: 100, totalPages: 1, hasNext: false };
  const client = {
    auth: { authenticate: async () => undefined },
    close: async () => undefined,
    registry: { findPatient: answer('registry.findPatient', { id: 'CR-1', identificationNumber: '30000005', identificationType: 'National ID' }) },
    eligibility: {
      check: answer('eligibility.check', {
        found: true,
        covered: true,
        fullName: 'Mwangi Njoroge Kariuki',
        crNumber: 'CR-1',
        memberType: 'PRIMARY',
        coverage: { start: '2025-07-01', end: '2026-06-30' },
        message: undefined,
        reason: undefined,
        possibleSolution: undefined,
        whitelistedForOTP: false,
        facilityBiometricsEnforced: true,
        schemes,
        dateOfBirth: '1978-05-09',
        gender: 'Male',
        requestIdNumber: '30000005',
        requestIdType: '2',
        facilityContracts: [],
      }),
      subBenefits: answer('eligibility.subBenefits', empty),
      interventions: answer('eligibility.interventions', empty),
      setCover: answer('eligibility.setCover', { message: 'set' }),
    },
    consent: { contacts: answer('consent.contacts', []) },
  };
  return { client: client as unknown as ExchangeClient, calls };
}

let station: Station | undefined;
let dir: string | undefined;
afterEach(async () => {
  await station?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function open(schemes: EligibilityScheme[]) {
  dir = mkdtempSync(join(tmpdir(), 'idhini-scheme-'));
  const exchange = fakeExchange(schemes);
  station = createStation({
    databasePath: join(dir, 'station.db'),
    secrets: memorySecretStore({ 'idhini.client-secret': JSON.stringify({ origin: 'https://exchange.example.com', secret: 'secret-of-the-test' }) }),
    exchangeClientFactory: () => exchange.client,
    readers: nativeReaders({ localWorkstationId: 'WS-1' }),
    log: { destination: { write: () => true } },
    initialSettings: { exchangeBaseUrl: 'https://exchange.example.com', clientId: 'facility', facilityCode: 'FID-00-000004-0', facilityName: 'Hospital', agentNationalId: '22334455' },
    provisioning: { source: 'launcher', settings: {}, staff: [{ name: 'Ward nurse', role: 'nurse', pin: '2468' }] },
  });
  await station.start();
  await station.bridge.invoke('station.unlock', { pin: '2468' });
  const lookUp = await station.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000005' });
  if (!lookUp.ok) throw new Error(JSON.stringify(lookUp.error));
  return { exchange, patientRef: lookUp.value.patientRef, s: station };
}

describe('patient.chooseScheme', () => {
  it('records the choice without calling the exchange', async () => {
    const { exchange, patientRef, s } = await open([scheme({}), scheme({ id: '5', name: 'PUBLIC OFFICERS MEDICAL SCHEME FUND', policyNumber: 'POMSF-1' })]);
    const before = exchange.calls.length;
    const chosen = await s.bridge.invoke('patient.chooseScheme', { patientRef, schemeId: '5' });
    expect(chosen).toMatchObject({ ok: true, value: { schemeChoiceNeeded: false, chosenSchemeId: '5' } });
    expect(exchange.calls.slice(before)).toEqual([]);
  });

  it('refuses a scheme the covers call could not name: no policy number, or no principal', async () => {
    const { patientRef, s } = await open([
      scheme({ policyNumber: undefined }),
      scheme({ id: '5', name: 'PUBLIC OFFICERS MEDICAL SCHEME FUND', policyNumber: 'POMSF-1', principalCrNumber: undefined }),
      scheme({ id: '7', name: 'OTHER', covered: false }),
    ]);
    for (const schemeId of ['2', '5']) {
      const refused = await s.bridge.invoke('patient.chooseScheme', { patientRef, schemeId });
      expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION', details: { field: 'schemeId' } } });
    }
    expect(await s.bridge.invoke('patient.chooseScheme', { patientRef, schemeId: '7' })).toMatchObject({ ok: false, error: { code: 'NOT_COVERED' } });
  });
});
