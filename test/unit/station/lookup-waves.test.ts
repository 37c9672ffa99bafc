// The nurse waits only on the contract's dependency chain: patient.lookUp against a fake exchange
// whose answers are released in waves. Each wave releases every call then outstanding, so the
// number of waves is the number of round trips the nurse sits through, independent of any clock;
// and the calls outstanding in one wave show which go out together and how many lists at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeClient, Intervention, Page } from '../../../electron/payer';
import { createStation, memorySecretStore, nativeReaders, type Station } from '../../../electron/station';
import { openDatabase } from '../../../electron/station/db';
import { wireIntervention } from './wire-intervention';

interface Pending {
  readonly operation: string;
  readonly input: unknown;
  readonly release: () => void;
}

function page<T>(items: T[], pageNo: number, size: number): Page<T> {
  const slice = items.slice((pageNo - 1) * size, pageNo * size);
  return { items: slice, count: items.length, page: pageNo, pageSize: size, totalPages: Math.max(1, Math.ceil(items.length / size)), hasNext: pageNo * size < items.length };
}

function intervention(i: number): Intervention {
  const capitation = i === 3 || i === 2003;
  return wireIntervention(`SHA-02-${String(i).padStart(3, '0')}`, {
    name: `Intervention ${i}`,
    paymentMechanism: capitation ? 'CAPITATION' : 'FEE_FOR_SERVICE',
    scenario: capitation ? 'capitation' : 'fee-for-service',
    kephLevelTariff: 900,
    tariff: 900,
    fund: 'PHC',
  });
}

const subBenefit = (code: string, accessPoint: string) => ({ code, name: code, accessPoint, fund: 'PHC', parentBenefitCode: undefined, cover: undefined, allowedInterventions: [] });

/**
 * Two outpatient sub-benefits, one inpatient, and eight more for the background: each answers its
 * own list, whole, as UAT does. SB-09-01 holds another capitation intervention: a ward that opens
 * its visits there has it as its usual.
 */
const subBenefits = [
  subBenefit('SB-02-01', 'OP'),
  subBenefit('SB-02-02', 'OP_AND_IP'),
  subBenefit('SB-07-01', 'IP'),
  ...Array.from({ length: 8 }, (_, i) => subBenefit(`SB-09-0${i + 1}`, 'IP')),
];
const lists: Record<string, Intervention[]> = {
  'SB-02-01': Array.from({ length: 300 }, (_, i) => intervention(i + 1)),
  'SB-02-02': Array.from({ length: 250 }, (_, i) => intervention(i + 301)),
  'SB-07-01': Array.from({ length: 300 }, (_, i) => intervention(i + 551)),
  'SB-09-01': [intervention(2003)],
};

/** A fake exchange that holds every answer until the test releases a wave. */
function wavedExchange() {
  const pending: Pending[] = [];
  const log: Pending[][] = [];
  const held =
    <I, O>(operation: string, answer: (input: I) => O) =>
    (input: I) =>
      new Promise<O>((resolve) => pending.push({ operation, input, release: () => resolve(answer(input)) }));
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
        const list = lists[q.sub_benefit_code] ?? [];
        return page(list, q.page ?? 1, q.pageSize ?? Math.max(1, list.length));
      }),
      utilization: held('eligibility.utilization', () => []),
    },
    consent: { contacts: held('consent.contacts', () => [{ id: '41', value: '+254712***001', type: 'PHO', confirmed: true, active: true, main: true }]) },
  };
  return {
    client: client as unknown as ExchangeClient,
    log,
    /** Releases every call outstanding now; answers them. */
    async wave(): Promise<Pending[]> {
      await settle();
      const now = pending.splice(0);
      log.push(now);
      for (const p of now) p.release();
      await settle();
      return now;
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 20));
const names = (calls: readonly Pending[]) => calls.map((c) => c.operation).sort();
const listed = (calls: readonly Pending[]) => calls.filter((c) => c.operation === 'eligibility.interventions').map((c) => (c.input as { sub_benefit_code: string }).sub_benefit_code);

let station: Station | undefined;
let dir: string | undefined;
afterEach(async () => {
  await station?.stop();
  station = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A station on the waved exchange; `memo` is what it remembers from earlier shifts (the ward's usual). */
async function startStation(exchange: ReturnType<typeof wavedExchange>, memo: Record<string, string> = {}): Promise<Station> {
  dir = mkdtempSync(join(tmpdir(), 'idhini-waves-'));
  secrets = memorySecretStore({ 'idhini.client-secret': JSON.stringify({ origin: 'https://exchange.example.com', secret: 'secret-of-the-test' }) });
  const databasePath = join(dir, 'station.db');
  const db = openDatabase(databasePath);
  for (const [key, value] of Object.entries(memo)) db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(`memo.${key}`, JSON.stringify(value));
  db.close();
  return openStation(exchange, databasePath);
}

/** The key store of the station under test: kept across a restart, as the OS keystore is. */
let secrets = memorySecretStore();

/** The station on this data folder (again, after a restart). */
async function openStation(exchange: ReturnType<typeof wavedExchange>, databasePath: string): Promise<Station> {
  station = createStation({
    databasePath,
    secrets,
    exchangeClientFactory: () => exchange.client,
    readers: nativeReaders({ localWorkstationId: 'WS-1' }),
    log: { destination: { write: () => true } },
    initialSettings: { exchangeBaseUrl: 'https://exchange.example.com', clientId: 'facility', facilityCode: 'FID-00-000004-0', facilityName: 'Hospital', agentNationalId: '22334455' },
    provisioning: { source: 'launcher', settings: {}, staff: [{ name: 'Ward nurse', role: 'nurse', pin: '2468' }] },
  });
  await station.start();
  await station.bridge.invoke('station.unlock', { pin: '2468' });
  return station;
}

/** Releases waves until `promise` settles; answers it and how many waves it took. */
async function wavesUntil<T>(exchange: ReturnType<typeof wavedExchange>, promise: Promise<T>): Promise<{ value: T; waves: number }> {
  let done = false;
  void promise.finally(() => (done = true));
  let waves = 0;
  await settle();
  while (!done && waves < 10) {
    await exchange.wave();
    waves += 1;
  }
  return { value: await promise, waves };
}

describe('patient.lookUp round trips', () => {
  it('paints eligibility after one wave; the details after two more on a station with no usual service yet', async () => {
    const exchange = wavedExchange();
    const s = await startStation(exchange);
    const early = await wavesUntil(exchange, s.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001', answerAt: 'eligibility' }));
    expect(early.waves).toBe(1);
    expect(names(exchange.log[0]!)).toEqual(['eligibility.check', 'registry.findPatient']);
    if (!early.value.ok) throw new Error(early.value.error.message);
    expect(early.value.value).toMatchObject({ covered: true, detailsLoading: true, suggestedIntervention: null });

    const details = await wavesUntil(exchange, s.bridge.invoke('patient.details', { patientRef: early.value.value.patientRef }));
    expect(details.waves).toBe(2);
    expect(names(exchange.log[1]!)).toEqual(['consent.contacts', 'eligibility.subBenefits']);
    // The outpatient ward's own two sub-benefits, each by its code, whole (no paging asked for);
    // the inpatient ones are not asked for until the nurse needs them.
    expect(exchange.log[2]!.map((c) => c.input)).toEqual([
      { patient_id: 'CR-1', sub_benefit_code: 'SB-02-01' },
      { patient_id: 'CR-1', sub_benefit_code: 'SB-02-02' },
    ]);
    if (!details.value.ok) throw new Error(details.value.error.message);
    expect(details.value.value).toMatchObject({ detailsLoading: false, hasPhone: true, suggestedIntervention: { code: 'SHA-02-003', name: 'Intervention 3', scenario: 'capitation' } });
  });

  it('answers in two waves where the ward has a usual service: its sub-benefit is asked for beside the contacts', async () => {
    const exchange = wavedExchange();
    const s = await startStation(exchange, { 'usual.OUTPATIENT': 'SHA-02-2003', 'usualSubBenefit.OUTPATIENT': 'SB-09-01', 'subBenefitUses.OUTPATIENT': JSON.stringify({ 'SB-09-01': 5, 'SB-02-02': 2 }) });
    const lookUp = await wavesUntil(exchange, s.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' }));
    expect(lookUp.waves).toBe(2);
    // The usual sub-benefit at once, the most-used one beside it.
    expect(names(exchange.log[1]!)).toEqual(['consent.contacts', 'eligibility.interventions', 'eligibility.interventions', 'eligibility.subBenefits']);
    expect(listed(exchange.log[1]!)).toEqual(['SB-09-01', 'SB-02-02']);
    if (!lookUp.value.ok) throw new Error(lookUp.value.error.message);
    expect(lookUp.value.value.suggestedIntervention).toEqual({ code: 'SHA-02-2003', name: 'Intervention 2003', scenario: 'capitation' });
  });

  it('asks for the phones (and the usual list, unless kept) beside eligibility for a patient looked up before: consent has what it needs after one wave', async () => {
    const exchange = wavedExchange();
    const s = await startStation(exchange, { 'usual.OUTPATIENT': 'SHA-02-2003', 'usualSubBenefit.OUTPATIENT': 'SB-09-01' });
    const first = await wavesUntil(exchange, s.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' }));
    if (!first.value.ok) throw new Error(first.value.error.message);
    while ((await exchange.wave()).length > 0);

    // The CR number kept with the patient is all the phones need: they go out with eligibility.
    // The lists were kept from the first look-up: none is asked again.
    const before = exchange.log.length;
    const again = await wavesUntil(exchange, s.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' }));
    expect(again.waves).toBe(1);
    expect(names(exchange.log[before]!)).toEqual(['consent.contacts', 'eligibility.check', 'registry.findPatient']);
    if (!again.value.ok) throw new Error(again.value.error.message);
    expect(again.value.value).toMatchObject({ detailsLoading: false, hasPhone: true, suggestedIntervention: { code: 'SHA-02-2003' } });

    // After a restart the lists are gone, the patient kept: the usual list goes out in the first wave too.
    await s.stop();
    const restarted = await openStation(exchange, join(dir!, 'station.db'));
    const afterRestart = exchange.log.length;
    const third = await wavesUntil(exchange, restarted.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' }));
    expect(third.waves).toBe(1);
    expect(names(exchange.log[afterRestart]!)).toEqual(['consent.contacts', 'eligibility.check', 'eligibility.interventions', 'registry.findPatient']);
    expect(listed(exchange.log[afterRestart]!)).toEqual(['SB-09-01']);
    if (!third.value.ok) throw new Error(third.value.error.message);
    expect(third.value.value).toMatchObject({ detailsLoading: false, suggestedIntervention: { code: 'SHA-02-2003' } });
  });

  it('keeps the background to three lists at a time and fetches a list the nurse asks for at once, beside them', async () => {
    const exchange = wavedExchange();
    const s = await startStation(exchange, { 'usual.OUTPATIENT': 'SHA-02-2003', 'usualSubBenefit.OUTPATIENT': 'SB-09-01' });
    const lookUp = await wavesUntil(exchange, s.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' }));
    if (!lookUp.value.ok) throw new Error(lookUp.value.error.message);
    const patientRef = lookUp.value.value.patientRef;
    // Ten lists are still to come: three go out, the others wait their turn.
    const background = s.bridge.invoke('benefits.interventions', { patientRef, background: true, pageSize: 1000 });
    const wave = await exchange.wave();
    expect(listed(wave)).toHaveLength(3);
    // The nurse picks a sub-benefit still waiting: it goes out in the next wave, beside the background's three.
    const wanted = s.bridge.invoke('benefits.interventions', { patientRef, subBenefitCode: 'SB-09-08', pageSize: 1000 });
    const next = await exchange.wave();
    expect(listed(next)).toContain('SB-09-08');
    expect(listed(next)).toHaveLength(4);
    expect((await wanted).ok).toBe(true);
    const all = await wavesUntil(exchange, background);
    if (!all.value.ok) throw new Error(all.value.error.message);
    expect(all.value.value.total).toBe(851);
    // Every list once, none asked for twice.
    const asked = exchange.log.flatMap(listed);
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked).toHaveLength(subBenefits.length);
  });
});
