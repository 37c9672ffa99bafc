// Look-ups instead of typing (issues 14 and 15), through the bridge against the sandbox: the ICD-11
// diagnosis and the generic medicine found by a few letters through the terminology search, each in
// the owner and source the administrator set (none set: the medicines are not searched at all), the
// codes used on this station's visits listed first; the doctor found in the professionals registry by number, with
// name, cadre and licence state, and then by a part of the name.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { memorySecretStore } from '../../../electron/station';
import { startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
let conceptSearches = 0;
let lastSearch: Parameters<ExchangeClient['lookups']['searchConcepts']>[0] | undefined;
const secrets = memorySecretStore();

/** The real client, counting the concept searches the station makes and keeping the last one. */
function countingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  const searchConcepts: ExchangeClient['lookups']['searchConcepts'] = (request, callOptions) => {
    conceptSearches += 1;
    lastSearch = request;
    return client.lookups.searchConcepts(request, callOptions);
  };
  return { ...client, lookups: { ...client.lookups, searchConcepts } };
}

beforeAll(async () => {
  world = await startWorld();
  s = await world.station({ databasePath: join(world.dir.path, 'lookups.db'), secrets, extra: { exchangeClientFactory: countingClient } });
});
afterAll(async () => {
  await world.close();
});

describe('the diagnosis search', () => {
  it('finds ICD-11 codes by a few letters of their title, with the title', async () => {
    const found = await s.ok('terminology.searchDiagnoses', { text: 'malar' });
    expect(found.searched).toBe(true);
    expect(found.items).toContainEqual({ code: '1F40.Z', title: 'Malaria due to Plasmodium falciparum, unspecified', recent: false });
    expect(found.items.every((item) => /malar/i.test(item.title ?? '') || /malar/i.test(item.code))).toBe(true);
  });

  it('asks in the owner and source set for diagnoses, so no medicine comes back', async () => {
    const found = await s.ok('terminology.searchDiagnoses', { text: 'GE10' });
    expect(lastSearch).toEqual({ search: 'GE10', limit: 20, owner: 'WHO', source: 'ICD-11' });
    expect(found).toEqual({ items: [], searched: true });
  });

  it('finds a code by its first characters', async () => {
    const found = await s.ok('terminology.searchDiagnoses', { text: 'BA0' });
    expect(found.items.map((item) => item.code)).toEqual(['BA00']);
  });

  it('asks SHA nothing for fewer than two letters', async () => {
    const before = conceptSearches;
    const found = await s.ok('terminology.searchDiagnoses', { text: ' m ' });
    expect(found).toEqual({ items: [], searched: false });
    expect(conceptSearches).toBe(before);
  });

  it('lists the codes used on this station’s visits first, with nothing typed and among the matches', async () => {
    const cr = await world.control.crIdOf('30000002');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    await s.ok('consent.sendSms', { workflowId: consent.workflowId });
    await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    const visit = await visitOpenedBy(s, consent.workflowId);
    await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 500, quantity: 1, diagnoses: [{ code: 'CA40.Z', name: 'Pneumonia, organism unspecified' }] });

    const recent = await s.ok('terminology.searchDiagnoses', { text: '' });
    expect(recent.searched).toBe(false);
    expect(recent.items[0]).toEqual({ code: 'CA40.Z', title: 'Pneumonia, organism unspecified', recent: true });

    const matching = await s.ok('terminology.searchDiagnoses', { text: 'pn' });
    expect(matching.items[0]).toMatchObject({ code: 'CA40.Z', recent: true });
    expect(matching.items.filter((item) => item.code === 'CA40.Z')).toHaveLength(1);
  });

  it('an exchange that fails is an error the nurse sees, never an empty list', async () => {
    await world.control.post('/faults', { routes: ['GET /api/v1/clinical/concepts'], status: 503, count: 20 });
    try {
      const error = await s.refused('terminology.searchDiagnoses', { text: 'cholera' });
      expect(error.code).toBe('EXCHANGE_UNREACHABLE');
    } finally {
      await fetch(`${world.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
    expect((await s.ok('terminology.searchDiagnoses', { text: 'cholera' })).items.map((i) => i.code)).toEqual(['1A00']);
  });
});

describe('the medicine search', () => {
  it('finds generic medicines by a few letters, in the medicines’ owner and source only', async () => {
    const found = await s.ok('terminology.searchMedicines', { text: 'amoxi' });
    expect(lastSearch).toEqual({ search: 'amoxi', limit: 20, owner: 'MOH-PPB', source: 'HPT' });
    expect(found.configured).toBe(true);
    expect(found.searched).toBe(true);
    expect(found.items).toEqual([
      { code: 'GE10110', title: 'Amoxicillin 500 mg oral capsule', recent: false },
      { code: 'GE10111', title: 'Amoxicillin 250 mg/5 mL powder for oral suspension', recent: false },
    ]);
    // A diagnosis's words find no medicine: the search never mixes the two.
    expect((await s.ok('terminology.searchMedicines', { text: 'malaria' })).items).toEqual([]);
  });

  it('asks SHA nothing for fewer than two letters', async () => {
    const before = conceptSearches;
    expect(await s.ok('terminology.searchMedicines', { text: 'a' })).toMatchObject({ configured: true, searched: false });
    expect(conceptSearches).toBe(before);
  });

  it('lists the medicines prescribed at this station first, with nothing typed and among the matches', async () => {
    const visit = (await s.ok('workflow.list', { kind: 'visit' })).items.find((wf) => wf.state === 'open');
    expect(visit).toBeDefined();
    const prescriber = { identificationType: 'Registration Number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
    const item = { doseQuantity: 1, doseUnit: 'tablet', timesPerPeriod: 2, period: 'day' as const, duration: 30, durationUnit: 'day' as const, refills: 0 };
    await s.ok('prescription.write', { workflowId: visit!.workflowId, prescriber, items: [{ ...item, conceptCode: 'GE10111', conceptName: 'Amoxicillin 250 mg/5 mL powder for oral suspension' }] });
    await s.ok('prescription.write', { workflowId: visit!.workflowId, prescriber, items: [{ ...item, conceptCode: 'GE10002', conceptName: 'Metformin 500 mg oral tablet' }] });

    const recent = await s.ok('terminology.searchMedicines', { text: '' });
    expect(recent.items.map((m) => [m.code, m.recent])).toEqual([['GE10002', true], ['GE10111', true]]);
    const matching = await s.ok('terminology.searchMedicines', { text: 'amox' });
    expect(matching.items.map((m) => [m.code, m.recent])).toEqual([['GE10111', true], ['GE10110', false]]);
  });

  it('not set up for this facility: says so and asks SHA nothing; diagnoses are then asked with neither owner nor source', async () => {
    const bare = await world.station({
      databasePath: join(world.dir.path, 'lookups-bare.db'),
      extra: { exchangeClientFactory: countingClient, provisioning: { source: 'launcher', settings: { terminology: { medicines: null, diagnoses: null } }, staff: [] } },
    });
    const before = conceptSearches;
    expect(await bare.ok('terminology.searchMedicines', { text: 'amoxi' })).toEqual({ configured: false, items: [], searched: false });
    expect(conceptSearches).toBe(before);
    await bare.ok('terminology.searchDiagnoses', { text: 'cholera' });
    expect(lastSearch).toEqual({ search: 'cholera', limit: 20 });
  });

  it('is the administrator’s to set, and a provisioning file fixes it', async () => {
    expect((await s.ok('settings.get', {})).terminology).toEqual({ medicines: { owner: 'MOH-PPB', source: 'HPT' }, diagnoses: { owner: 'WHO', source: 'ICD-11' } });
    const error = await s.refused('settings.update', { terminology: { medicines: { owner: 'X', source: 'Y' }, diagnoses: null } });
    expect(error).toMatchObject({ code: 'ADMINISTRATOR_REQUIRED', details: { field: 'terminology' } });
    const fixed = await world.station({
      databasePath: join(world.dir.path, 'lookups-file.db'),
      extra: { provisioning: { source: 'file', settings: { terminology: { medicines: { owner: 'KE-MOH', source: 'KEML' }, diagnoses: null } }, staff: [] } },
    });
    expect((await fixed.ok('settings.get', {})).provisioned).toContain('terminology');
    expect(await fixed.refused('settings.update', { terminology: { medicines: null, diagnoses: null } })).toMatchObject({ code: 'PROVISIONED' });
  });
});

describe('the doctor look-up', () => {
  const doctor = { identificationType: 'Registration Number', identificationNumber: 'A12345', regulationBody: 'kmpdc' };

  it('finds the doctor by registration number: name, cadre, specialty and licence state', async () => {
    const { professional } = await s.ok('professionals.find', { doctor });
    expect(professional).toEqual({
      doctor: { identificationType: 'Registration Number', identificationNumber: 'A12345', regulationBody: 'KMPDC' },
      name: 'Dr. Achieng Odhiambo',
      cadre: 'Medical Officer',
      specialty: 'General practice',
      licence: 'active',
      licenceEnds: '2027-12-31',
    });
  });

  it('names a number the registry does not know as DOCTOR_NOT_FOUND', async () => {
    const error = await s.refused('professionals.find', { doctor: { ...doctor, identificationNumber: 'Z99999' } });
    expect(error.code).toBe('DOCTOR_NOT_FOUND');
  });

  it('refuses a regulator the registry does not know before asking it', async () => {
    const error = await s.refused('professionals.find', { doctor: { ...doctor, regulationBody: 'KMLTTB' } });
    expect(error).toMatchObject({ code: 'VALIDATION', details: { field: 'doctor.regulationBody' } });
  });

  it('finds a doctor found before by a part of the name, newest first; one never found is not listed', async () => {
    await s.ok('professionals.find', { doctor: { identificationType: 'Registration Number', identificationNumber: 'RCO-04512', regulationBody: 'COC' } });
    expect((await s.ok('professionals.searchByName', { name: 'achieng' })).items.map((p) => p.doctor.identificationNumber)).toEqual(['A12345']);
    expect((await s.ok('professionals.searchByName', { name: 'wairimu njeri' })).items.map((p) => p.cadre)).toEqual(['Clinical Officer']);
    expect((await s.ok('professionals.searchByName', { name: 'Kilonzo' })).items).toEqual([]);
  });

  it('remembers the doctors found across a restart of the station', async () => {
    await s.station.stop();
    const again = await world.station({ databasePath: join(world.dir.path, 'lookups.db'), secrets, extra: { exchangeClientFactory: countingClient } });
    expect((await again.ok('professionals.searchByName', { name: 'odhiambo' })).items).toHaveLength(1);
  });
});
