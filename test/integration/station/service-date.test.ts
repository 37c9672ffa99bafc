// A billing line's service date reaches the exchange client as its charge_date, an ISO calendar
// day, or not at all: the exchange client refuses anything else (such as "01/07/2025") before
// sending, so the station's contract refuses it first, with the field named, and nothing is
// journaled or sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
let visitId: string;
const sentLines: Record<string, unknown>[] = [];

/** The real client (frozen), wrapped so that every claims.addBilling request is recorded as the station hands it over. */
function recordingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  const addBilling: ExchangeClient['claims']['addBilling'] = (request, callOptions) => {
    sentLines.push(request as Record<string, unknown>);
    return client.claims.addBilling(request, callOptions);
  };
  return { ...client, claims: { ...client.claims, addBilling } };
}

beforeAll(async () => {
  world = await startWorld();
  s = await world.station({ extra: { exchangeClientFactory: recordingClient } });
  const cr = await world.control.crIdOf('30000002');
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  visitId = (await visitOpenedBy(s, consent.workflowId)).workflowId;
});
afterAll(async () => {
  await world.close();
});

const line = { unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] };

describe('the service date of a billing line', () => {
  it.each(['01/07/2025', '2025-7-1', '2025-02-30', '2025-13-01', '1 July 2025', '2025-07-01T08:30:00Z', ' 2025-07-01'])('%j is refused by the contract, naming the field, and never sent', async (serviceDate) => {
    const before = sentLines.length;
    const error = await s.refused('visit.addLine', { workflowId: visitId, ...line, serviceDate });
    expect(error).toMatchObject({ code: 'VALIDATION', details: { field: 'serviceDate' } });
    expect(error.message).not.toContain(serviceDate.trim());
    expect(sentLines.length).toBe(before);
    expect((await s.ok('workflow.get', { workflowId: visitId })).state).toBe('open');
  });

  it('an ISO day reaches the client as charge_date, unchanged, and shows on the line', async () => {
    const today = new Date(world.sandbox.context.clock.now()).toISOString().slice(0, 10);
    const view = await s.ok('visit.addLine', { workflowId: visitId, ...line, serviceDate: today });
    expect(sentLines.at(-1)).toMatchObject({ charge_date: today });
    expect(view.kind === 'visit' && view.lines.at(-1)?.serviceDate).toBe(today);
  });

  it('a line without a date sends none (the exchange takes the visit day)', async () => {
    await s.ok('visit.addLine', { workflowId: visitId, ...line });
    expect(sentLines.at(-1)).not.toHaveProperty('charge_date');
  });
});
