// A visit's prescriptions read back from SHA (issue 15): the preview by consent token answers one
// prescription, so the station reads the status and the prescriber's review of the one it shows,
// settles a first prescription whose create answer was lost after it reached SHA (journaled
// `look-up`), and leaves a later one unconfirmed (`cannot-look-up`): SHA keeps showing the first.
// The lost answers are made at the client boundary: the real create goes through to the sandbox
// and its answer is then dropped, as a cut connection after sending would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandInput, CommandOutput } from '../../../electron/contract';
import { createExchangeClient, ExchangeError, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
/** The hospital's station; the dispensary's, for a visit of the same patient on a consent token of its own. */
let s: StationHandle;
let dispensary: StationHandle;
let hospitalVisit: string;
let creates = 0;
let previews = 0;
let loseNextCreateAnswer = false;

/** The real client; a create's answer may be lost after SHA has it. */
function losingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  return {
    ...client,
    prescriptions: {
      ...client.prescriptions,
      create: async (request, callOptions) => {
        creates += 1;
        const answer = await client.prescriptions.create(request, callOptions);
        if (!loseNextCreateAnswer) return answer;
        loseNextCreateAnswer = false;
        throw new ExchangeError({ kind: 'timeout', message: 'no answer in time', operation: 'prescriptions.create', outcomeUnknown: true });
      },
      preview: (request, callOptions) => {
        previews += 1;
        return client.prescriptions.preview(request, callOptions);
      },
    },
  };
}

const prescriber = { identificationType: 'Registration Number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
const item = (conceptCode: string) => ({ conceptCode, doseQuantity: 1, doseUnit: 'tablet', timesPerPeriod: 2, period: 'day' as const, duration: 5, durationUnit: 'day' as const, refills: 0 });

/** A visit of the demo patient whitelisted for the SMS code, opened on a station. */
async function openVisit(s: StationHandle): Promise<string> {
  const nationalId = '30000002';
  const cr = await world.control.crIdOf(nationalId);
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: nationalId });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  return (await visitOpenedBy(s, consent.workflowId)).workflowId;
}

const write = (workflowId: string, conceptCode: string): CommandInput<'prescription.write'> => ({ workflowId, prescriber, items: [item(conceptCode)] });

async function reconcileSummaries(s: StationHandle, workflowId: string): Promise<string[]> {
  const audit = await s.ok('audit.read', { workflowId, action: 'reconcile.prescriptions.create', page: 1, pageSize: 50 });
  return audit.items.map((entry) => entry.summary);
}

const listed = async (s: StationHandle, workflowId: string) => (await s.ok('prescription.list', { workflowId })).items;

beforeAll(async () => {
  world = await startWorld();
  s = await world.station({ extra: { exchangeClientFactory: losingClient } });
  dispensary = await world.station({ facility: 'dispensary', extra: { exchangeClientFactory: losingClient } });
});
afterAll(async () => {
  await world.close();
});

describe('the status and review read back', () => {
  it('reads what SHA holds now, as the payer moves it, and says which prescription SHA answered about', async () => {
    const visitId = await openVisit(s);
    hospitalVisit = visitId;
    const rx = await s.ok('prescription.write', write(visitId, 'AMOX-500'));
    expect(rx).toMatchObject({ state: 'written', reviewStatus: 'PENDING', status: 'ACTIVE' });
    expect(rx.statusAt).not.toBeNull();

    await world.control.post(`/prescriptions/${rx.exchangeCode}/review`, { doctor_review_status: 'APPROVED' });
    const checked = await s.ok('prescription.check', { workflowId: visitId });
    expect(checked).toMatchObject({ answer: 'matched', shownRef: rx.prescriptionRef });
    expect(checked.items[0]).toMatchObject({ prescriptionRef: rx.prescriptionRef, reviewStatus: 'APPROVED', status: 'ACTIVE', statusAt: checked.checkedAt });
    // Kept on the visit: the list shows it without asking SHA again.
    expect((await listed(s, visitId))[0]).toMatchObject({ reviewStatus: 'APPROVED' });

    await world.control.post(`/prescriptions/${rx.exchangeCode}/review`, { status: 'CANCELLED', doctor_review_status: 'REJECTED' });
    expect((await s.ok('prescription.check', { workflowId: visitId })).items[0]).toMatchObject({ status: 'CANCELLED', reviewStatus: 'REJECTED' });
  });

  it('a second prescription keeps the status its create answered: SHA’s read-back shows the first', async () => {
    const visitId = hospitalVisit;
    const second = await s.ok('prescription.write', write(visitId, 'PARA-500'));
    expect(second.reviewStatus).toBe('PENDING');
    const checked = await s.ok('prescription.check', { workflowId: visitId });
    expect(checked.answer).toBe('matched');
    expect(checked.shownRef).not.toBe(second.prescriptionRef);
    expect(checked.items.find((p) => p.prescriptionRef === second.prescriptionRef)).toMatchObject({ reviewStatus: 'PENDING', statusAt: second.statusAt });
  });
});

describe('a create whose answer was lost after SHA had it (the dispensary, a consent token without prescriptions)', () => {
  let visitId: string;
  let first: CommandOutput<'prescription.list'>['items'][number];

  it('the visit’s first is settled by the read-back (journaled look-up) and never sent again', async () => {
    const s = dispensary;
    visitId = await openVisit(s);
    expect(await s.ok('prescription.check', { workflowId: visitId })).toMatchObject({ answer: 'none', shownRef: null, items: [] });
    const sentBefore = creates;
    const previewsBefore = previews;
    loseNextCreateAnswer = true;
    expect((await s.refused('prescription.write', write(visitId, 'METF-500'))).code).toBe('OUTCOME_UNKNOWN');
    expect(await listed(s, visitId)).toMatchObject([{ state: 'unconfirmed', exchangeCode: null }]);

    // The next command on the visit settles the lost call first, by the read-back.
    await s.ok('visit.preview', { workflowId: visitId });
    first = (await listed(s, visitId))[0]!;
    expect(first).toMatchObject({ state: 'written', status: 'ACTIVE', reviewStatus: 'PENDING', dispensable: true });
    expect(first.exchangeCode).toMatch(/^RX-/);
    expect(creates).toBe(sentBefore + 1);
    expect(previews).toBeGreaterThan(previewsBefore);
    expect(await reconcileSummaries(s, visitId)).toEqual(['the prescription read-back shows it at SHA']);
  });

  it('a later one stays unconfirmed (cannot-look-up): nothing is looked up for it and it is never sent again', async () => {
    const s = dispensary;
    const sentBefore = creates;
    const previewsBefore = previews;
    loseNextCreateAnswer = true;
    expect((await s.refused('prescription.write', write(visitId, 'ATOR-20'))).code).toBe('OUTCOME_UNKNOWN');
    await s.ok('visit.preview', { workflowId: visitId });
    const later = (await listed(s, visitId)).find((p) => p.items[0]?.conceptCode === 'ATOR-20');
    expect(later).toMatchObject({ state: 'unconfirmed', exchangeCode: null, dispensable: false });
    expect(previews).toBe(previewsBefore);
    expect(await reconcileSummaries(s, visitId)).toContain('SHA answers one prescription per consent token and this visit has another: kept unconfirmed');

    // Asked on demand, SHA still answers about the first: the later one is not settled by a guess.
    const checked = await s.ok('prescription.check', { workflowId: visitId });
    expect(checked).toMatchObject({ answer: 'matched', shownRef: first.prescriptionRef });
    expect(checked.items.find((p) => p.prescriptionRef === later!.prescriptionRef)).toMatchObject({ state: 'unconfirmed' });
    expect(creates).toBe(sentBefore + 1);
  });
});

describe('a visit whose consent token carries a prescription written elsewhere', () => {
  it('is told SHA answered about a prescription it cannot tie to its own: nothing is changed', async () => {
    // Another dispensary station: the same patient's visit is answered again, on the same consent token.
    const other = await world.station({ facility: 'dispensary', extra: { exchangeClientFactory: losingClient } });
    const visitId = await openVisit(other);
    expect(await other.ok('prescription.check', { workflowId: visitId })).toMatchObject({ answer: 'unmatched', shownRef: null, items: [] });
  });
});
