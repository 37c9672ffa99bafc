// Prescriptions on an open visit and their dispensing (issue 15), through the bridge against the
// sandbox: the items as the wire takes them (frequency an integer per period), SHA's review read
// back from its answer, a refusal leaving nothing behind, a lost answer kept as unconfirmed and
// never sent again; then the pharmacy's dispenses: part of a fill, the rest, the refill, and no
// more once every fill is given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandInput } from '../../../electron/contract';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
let visitId: string;
let patientRef: string;
const sent: { create: Record<string, unknown>[]; dispense: Record<string, unknown>[] } = { create: [], dispense: [] };

/** The real client, recording what the station hands to the two writes. */
function recordingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  return {
    ...client,
    prescriptions: {
      ...client.prescriptions,
      create: (request, callOptions) => {
        sent.create.push(request as Record<string, unknown>);
        return client.prescriptions.create(request, callOptions);
      },
      dispense: (request, callOptions) => {
        sent.dispense.push(request as Record<string, unknown>);
        return client.prescriptions.dispense(request, callOptions);
      },
    },
  };
}

const prescriber = { identificationType: 'Registration Number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
const amoxicillin = {
  conceptCode: 'AMOX-500',
  conceptName: 'Amoxicillin 500 mg capsule',
  doseQuantity: 1,
  doseUnit: 'capsule',
  timesPerPeriod: 3,
  period: 'day' as const,
  duration: 5,
  durationUnit: 'day' as const,
  refills: 1,
  patientInstruction: 'After meals',
};
/** A registered professional named by an identity document, as the exchange wants a dispenser. */
const dispenser = { identificationType: 'National ID' as const, identificationNumber: '26802244' };
const product = (quantity: number) => [{ productCode: 'AMOX-500-CAP-GSK', priceKes: 12.5, quantity }];

beforeAll(async () => {
  world = await startWorld();
  s = await world.station({ extra: { exchangeClientFactory: recordingClient } });
  const cr = await world.control.crIdOf('30000002');
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
  patientRef = patient.patientRef;
  const consent = await s.ok('consent.begin', { patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  visitId = (await visitOpenedBy(s, consent.workflowId)).workflowId;
});
afterAll(async () => {
  await world.close();
});

const write = (input: Partial<CommandInput<'prescription.write'>> = {}) => ({ workflowId: visitId, prescriber, items: [amoxicillin], ...input });

describe('a prescription on an open visit', () => {
  let rxRef: string;

  it('goes to SHA with the visit’s intervention, the prescriber and each item as the wire takes it; SHA’s number and review come back', async () => {
    const rx = await s.ok('prescription.write', write());
    rxRef = rx.prescriptionRef;
    expect(rx).toMatchObject({ state: 'written', status: 'ACTIVE', reviewStatus: 'PENDING', fillsAllowed: 2, fillsCompleted: 0, dispensable: true, patientRef });
    expect(rx.exchangeCode).toMatch(/^RX-/);
    expect(sent.create.at(-1)).toMatchObject({
      identification_number: 'A12345',
      identification_type: 'registration_number',
      regulation_body: 'KMPDC',
      items: [{ generic_concept_code: 'AMOX-500', dose_quantity: 1, dose_unit: 'capsule', frequency: 3, period_unit: 'day', duration: 5, duration_unit: 'day', needs_refill: true, refill_count: 1, patient_instruction: 'After meals' }],
    });
    expect(sent.create.at(-1)?.items).toEqual([expect.objectContaining({ start_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })]);
  });

  it('is listed on its visit and under its patient', async () => {
    expect((await s.ok('prescription.list', { workflowId: visitId })).items.map((p) => p.prescriptionRef)).toEqual([rxRef]);
    expect((await s.ok('prescription.list', { patientRef })).items.map((p) => p.prescriptionRef)).toEqual([rxRef]);
  });

  it('refuses a frequency that is not a whole number before anything is sent', async () => {
    const before = sent.create.length;
    const error = await s.refused('prescription.write', write({ items: [{ ...amoxicillin, timesPerPeriod: 1.5 }] }));
    expect(error).toMatchObject({ code: 'VALIDATION', details: { field: 'items.0.timesPerPeriod' } });
    expect(sent.create.length).toBe(before);
  });

  it('a prescriber the registry does not know is refused by SHA and leaves nothing on the visit', async () => {
    const error = await s.refused('prescription.write', write({ prescriber: { ...prescriber, identificationNumber: 'Z99999' } }));
    expect(error.code).toBe('DOCTOR_NOT_FOUND');
    expect((await s.ok('prescription.list', { workflowId: visitId })).items).toHaveLength(1);
  });

  it('dispenses part of a fill, then the rest, then the refill; then nothing more', async () => {
    const partial = await s.ok('prescription.dispense', { prescriptionRef: rxRef, dispenser, products: product(6), completesFill: false });
    expect(partial).toMatchObject({ fillsCompleted: 0, fillInProgress: true, dispensable: true });
    expect(partial.dispenses).toEqual([expect.objectContaining({ state: 'dispensed', status: 'DISPENSED', completesFill: false, products: product(6) })]);
    expect(sent.dispense.at(-1)).toEqual({
      actual_products: [{ actual_product_code: 'AMOX-500-CAP-GSK', medication_price: 12.5, total_quantity: 6 }],
      consent_token: expect.any(String),
      doctors: [{ identification_number: '26802244', identification_type: 'National ID' }],
      intervention_code: partial.interventionCode,
    });

    const rest = await s.ok('prescription.dispense', { prescriptionRef: rxRef, dispenser, products: product(9), completesFill: true });
    expect(rest).toMatchObject({ fillsCompleted: 1, fillInProgress: false, dispensable: true });

    const refill = await s.ok('prescription.dispense', { prescriptionRef: rxRef, dispenser, products: product(15), completesFill: true });
    expect(refill).toMatchObject({ fillsCompleted: 2, dispensable: false });

    const before = sent.dispense.length;
    expect(await s.refused('prescription.dispense', { prescriptionRef: rxRef, dispenser, products: product(1), completesFill: true })).toMatchObject({ code: 'WRONG_STATE' });
    expect(sent.dispense.length).toBe(before);
  });

  it('refuses a dispenser named by a registration number (SHA wants an identity document) before sending', async () => {
    const error = await s.refused('prescription.dispense', {
      prescriptionRef: rxRef,
      dispenser: { identificationType: 'registration_number' as 'National ID', identificationNumber: 'A12345' },
      products: product(1),
      completesFill: false,
    });
    expect(error).toMatchObject({ code: 'VALIDATION', details: { field: 'dispenser.identificationType' } });
  });

  it('a dispenser who is not a registered professional is refused by SHA and the dispense is not kept', async () => {
    const other = await s.ok('prescription.write', write());
    const error = await s.refused('prescription.dispense', { prescriptionRef: other.prescriptionRef, dispenser: { identificationType: 'National ID', identificationNumber: '99999999' }, products: product(2), completesFill: false });
    expect(error.code).toBe('DOCTOR_NOT_FOUND');
    const listed = (await s.ok('prescription.list', { workflowId: visitId })).items.find((p) => p.prescriptionRef === other.prescriptionRef);
    expect(listed?.dispenses).toEqual([]);
  });
});

// A later prescription of the visit (cannot-look-up) that never reached SHA; the read-back of a
// first one is in prescription-readback.test.ts.
describe('a prescription whose answer is lost', () => {
  it('is kept as unconfirmed, said to be unknown, and never sent again by the station', async () => {
    await world.control.post('/faults', { routes: ['POST /api/v1/prescriptions'], reset_connection: true, count: 1 });
    const before = sent.create.length;
    try {
      const error = await s.refused('prescription.write', write({ items: [{ ...amoxicillin, conceptCode: 'PARA-500' }] }));
      expect(error.code).toBe('OUTCOME_UNKNOWN');
    } finally {
      await fetch(`${world.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
    const listed = (await s.ok('prescription.list', { workflowId: visitId })).items.find((p) => p.items[0]?.conceptCode === 'PARA-500');
    expect(listed).toMatchObject({ state: 'unconfirmed', exchangeCode: null, dispensable: false });
    // The next command on the visit settles the lost call first: nothing is sent again behind the nurse.
    await s.ok('visit.preview', { workflowId: visitId });
    expect(sent.create.length).toBe(before + 1);
    expect(await s.refused('prescription.dispense', { prescriptionRef: listed!.prescriptionRef, dispenser, products: product(1), completesFill: true })).toMatchObject({ code: 'WRONG_STATE' });
  });
});

describe('a dispense whose answer is lost', () => {
  it('SHA unavailable (503: not done) leaves nothing recorded, to be tried again', async () => {
    const rx = await s.ok('prescription.write', write({ items: [{ ...amoxicillin, refills: 0 }] }));
    await world.control.post('/faults', { routes: ['POST /api/v1/prescriptions/dispense'], status: 503, count: 1 });
    try {
      expect((await s.refused('prescription.dispense', { prescriptionRef: rx.prescriptionRef, dispenser, products: product(15), completesFill: true })).code).toBe('EXCHANGE_UNREACHABLE');
    } finally {
      await fetch(`${world.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
    const listed = (await s.ok('prescription.list', { workflowId: visitId })).items.find((p) => p.prescriptionRef === rx.prescriptionRef);
    expect(listed).toMatchObject({ fillsCompleted: 0, dispensable: true, dispenses: [] });
  });

  it('no answer in time (504) is kept as unconfirmed, not counted as given, and never sent again by the station', async () => {
    const rx = await s.ok('prescription.write', write({ items: [{ ...amoxicillin, refills: 0 }] }));
    await world.control.post('/faults', { routes: ['POST /api/v1/prescriptions/dispense'], status: 504, count: 1 });
    const before = sent.dispense.length;
    try {
      expect((await s.refused('prescription.dispense', { prescriptionRef: rx.prescriptionRef, dispenser, products: product(15), completesFill: true })).code).toBe('OUTCOME_UNKNOWN');
    } finally {
      await fetch(`${world.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
    await s.ok('visit.preview', { workflowId: visitId });
    const listed = (await s.ok('prescription.list', { workflowId: visitId })).items.find((p) => p.prescriptionRef === rx.prescriptionRef);
    expect(listed).toMatchObject({ fillsCompleted: 0, dispensable: true, dispenses: [expect.objectContaining({ state: 'unconfirmed', completesFill: true })] });
    expect(sent.dispense.length).toBe(before + 1);
  });
});

describe('the station role', () => {
  it('is a ward by default, and only an administrator (or the provisioning file) makes the station the pharmacy window', async () => {
    expect((await s.ok('settings.get', {})).stationRole).toBe('ward');
    expect(await s.refused('settings.update', { stationRole: 'pharmacy' })).toMatchObject({ code: 'ADMINISTRATOR_REQUIRED', details: { field: 'stationRole' } });
    const pharmacy = await world.station({ extra: { provisioning: { source: 'file', settings: { stationRole: 'pharmacy' }, staff: [] } } });
    expect((await pharmacy.ok('settings.get', {})).stationRole).toBe('pharmacy');
    expect(await pharmacy.refused('settings.update', { stationRole: 'ward' })).toMatchObject({ code: 'PROVISIONED' });
  });
});
