// The nurse waits only on the contract's dependency chain: patient.lookUp against a fake exchange
// whose answers are released in waves. Each wave releases every call then outstanding, so the
// number of waves is the number of round trips the nurse sits through, independent of any clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeClient, Intervention, Page } from '../../../electron/payer';
import { createStation, memorySecretStore, nativeReaders, type Station } from '../../../electron/station';
import { wireIntervention } from './wire-intervention';

interface Pending {
  readonly operation: string;
  readonly release: () => void;
}

function page<T>(items: T[], pageNo: number, size: number): Page<T> {
  const slice = items.slice((pageNo - 1) * size, pageNo * size);
  return { items: slice, count: items.length, page: pageNo, pageSize: size, totalPages: Math.max(1, Math.ceil(items.length / size)), hasNext: pageNo * size < items.length };
}

function intervention(i: number): Intervention {
  const capitation = i === 3;
  return wireIntervention(`SHA-02-${String(i).padStart(3, '0')}`, {
    name: `Intervention ${i}`,
    paymentMechanism: capitation ? 'CAPITATION' : 'FEE_FOR_SERVICE',
    scenario: capitation ? 'capitation' : 'fee-for-service',
    kephLevelTariff: 900,
    tariff: 900,
    fund: 'PHC',
  });
}

/** Three sub-benefits, two for outpatients: each answers its own list, whole, as UAT does. */
const subBenefits = [
  { code: 'SB-02-01', name: 'Primary outpatient care', accessPoint: 'OP', fund: 'PHC', parentBenefitCode: undefined, cover: undefined, allowedInterventions: [] },
  { code: 'SB-02-02', name: 'Outpatient diagnostics', accessPoint: 'OP_AND_IP', fund: 'PHC', parentBenefitCode: undefined, cover: undefined, allowedInterventions: [] },
  { code: 'SB-07-01', name: 'Inpatient care', accessPoint: 'IP', fund: 'SHIF', parentBenefitCode: undefined, cover: undefined, allowedInterventions: [] },
];

/** A fake exchange that holds every answer until the test releases a wave. */
function wavedExchange() {
  const pending: Pending[] = [];
  const log: string[][] = [];
  const held =
    <I, O>(operation: string, answer: (input: I) => O) =>
    (input: I) =>
      new Promise<O>((resolve) => pending.push({ operation, release: () => resolve(answer(input)) }));
  const lists: Record<string, Intervention[]> = {
    'SB-02-01': Array.from({ length: 300 }, (_, i) => intervention(i + 1)),
    'SB-02-02': Array.from({ length: 250 }, (_, i) => intervention(i + 301)),
    'SB-07-01': Array.from({ length: 300 }, (_, i) => intervention(i + 551)),
  };
  const inputs: Record<string, unknown>[] = [];
  const client = {
    auth: { authenticate: async () => undefined },
    close: async () => undefined,
    registry: { findPatient: held('registry.findPatient', () => ({ id: 'CR-1', identificationNumber: '30000001', identificationType: 'National ID' })) },
    eligibility: {
      check: held('eligibility.check', () => ({
        found: true,
        covered: true,
        fullName: 'Amina Wairimu Otieno',
        crNumber: 'CR-1',
        memberType: 'PRINCIPAL',
        coverage: { start: '2025-07-01', end: '2026-06-30' },
        message: 'covered',
        reason: undefined,
        possibleSolution: undefined,
        whitelistedForOTP: false,
        facilityBiometricsEnforced: true,
        schemes: [{ id: 'SHIF', name: 'SHIF', memberType: 'PRINCIPAL', covered: true, coverage: { start: '2025-07-01', end: '2026-06-30' }, policyNumber: 'P1', message: undefined, reason: undefined, possibleSolution: undefined }],
        dateOfBirth: '1990-01-01',
        gender: 'Female',
        requestIdNumber: '30000001',
        requestIdType: 'National ID',
        facilityContracts: [{ fund: 'PHC', status: 'ACTIVE' }],
      })),
      subBenefits: held('eligibility.subBenefits', (q: { page?: number }) => page(subBenefits, q.page ?? 1, 100)),
      interventions: held('eligibility.interventions', (q: { sub_benefit_code: string; page?: number; pageSize?: number }) => {
        inputs.push(q);
        const list = lists[q.sub_benefit_code] ?? [];
        return page(list, q.page ?? 1, q.pageSize ?? list.length);
      }),
    },
    consent: { contacts: held('consent.contacts', () => [{ id: '41', value: '+254712***001', type: 'PHO', confirmed: true, active: true, main: true }]) },
  };
  return {
    client: client as unknown as ExchangeClient,
    log,
    /** The interventions queries, as the station sent them (recorded when answered). */
    inputs,
    /** Releases every call outstanding now; answers how many there were. */
    async wave(): Promise<string[]> {
      await new Promise((r) => setTimeout(r, 20));
      const now = pending.splice(0);
      log.push(now.map((p) => p.operation));
      for (const p of now) p.release();
      return now.map((p) => p.operation);
    },
  };
}

let station: Station | undefined;
let dir: string | undefined;
afterEach(async () => {
  await station?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('patient.lookUp round trips', () => {
  it('takes three waves: registry ∥ eligibility, then contacts ∥ sub-benefits, then the ward\'s sub-benefits\' interventions together', async () => {
    dir = mkdtempSync(join(tmpdir(), 'idhini-waves-'));
    const exchange = wavedExchange();
    const secrets = memorySecretStore({ 'idhini.client-secret': JSON.stringify({ origin: 'https://exchange.example.com', secret: 'secret-of-the-test' }) });
    station = createStation({
      databasePath: join(dir, 'station.db'),
      secrets,
      exchangeClientFactory: () => exchange.client,
      readers: nativeReaders({ localWorkstationId: 'WS-1' }),
      log: { destination: { write: () => true } },
      initialSettings: { exchangeBaseUrl: 'https://exchange.example.com', clientId: 'facility', facilityCode: 'FID-00-000004-0', facilityName: 'Hospital', agentNationalId: '22334455' },
      provisioning: { source: 'launcher', settings: {}, staff: [{ name: 'Ward nurse', role: 'nurse', pin: '2468' }] },
    });
    await station.start();
    await station.bridge.invoke('station.unlock', { pin: '2468' });
    let answered = false;
    const lookUp = station.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' }).finally(() => (answered = true));
    let waves = 0;
    while (!answered && waves < 10) {
      await exchange.wave();
      waves += 1;
      await new Promise((r) => setTimeout(r, 20));
    }
    const outcome = await lookUp;
    expect(outcome.ok).toBe(true);
    expect(exchange.log[0]?.sort()).toEqual(['eligibility.check', 'registry.findPatient']);
    expect(exchange.log[1]?.sort()).toEqual(['consent.contacts', 'eligibility.subBenefits']);
    // The outpatient ward's two sub-benefits, each by its code, whole (no paging asked for); not the inpatient one.
    expect(exchange.log[2]).toEqual(['eligibility.interventions', 'eligibility.interventions']);
    expect(exchange.inputs).toEqual([
      { patient_id: 'CR-1', sub_benefit_code: 'SB-02-01' },
      { patient_id: 'CR-1', sub_benefit_code: 'SB-02-02' },
    ]);
    expect(waves).toBe(3);
    if (!outcome.ok) return;
    expect(outcome.value.suggestedIntervention).toEqual({ code: 'SHA-02-003', name: 'Intervention 3', scenario: 'capitation' });

    // The other sub-benefits' interventions are fetched when first asked for, once.
    const all = station!.bridge.invoke('benefits.interventions', { patientRef: outcome.value.patientRef, page: 1, pageSize: 1000 });
    await exchange.wave();
    const listed = await all;
    expect(exchange.inputs.slice(2)).toEqual([{ patient_id: 'CR-1', sub_benefit_code: 'SB-07-01' }]);
    expect(listed.ok && listed.value.total).toBe(850);
    if (listed.ok) expect(listed.value.items.find((i) => i.code === 'SHA-02-551')?.subBenefitCode).toBe('SB-07-01');
  });
});
