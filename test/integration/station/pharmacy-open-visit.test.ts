// The pharmacy window reaches a visit opened at a ward station (issue 15): two stations, each with
// its own data dir, against one sandbox. The pharmacy finds the patient's open visit through the
// exchange (the facility's authorizations), never opens one when none is open, and its consent —
// by SMS code or by fingerprint — reaches the ward's visit rather than a new claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandOutput } from '../../../electron/contract';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let ward: StationHandle;
let pharmacy: StationHandle;
let cr: string;

const NATIONAL_ID = '30000002';

/** The patient's authorizations and claims at the exchange (the sandbox's own state). */
const authorizationsOf = (patientId: string) => [...world.sandbox.context.state.authorizations.values()].filter((a) => a.patient_id === patientId);
const claimsOf = (patientId: string) => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === patientId);

async function lookUp(s: StationHandle): Promise<string> {
  return (await s.ok('patient.lookUp', { idType: 'National ID', idNumber: NATIONAL_ID })).patientRef;
}

async function consentBySms(s: StationHandle, workflowId: string): Promise<void> {
  await s.ok('consent.sendSms', { workflowId });
  await s.ok('consent.confirmSms', { workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
}

beforeAll(async () => {
  world = await startWorld();
  ward = await world.station();
  pharmacy = await world.station();
  cr = await world.control.crIdOf(NATIONAL_ID);
});
afterAll(async () => {
  await world.close();
});

const prescriber = { identificationType: 'Registration Number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
const amoxicillin = { conceptCode: 'AMOX-500', doseQuantity: 1, doseUnit: 'capsule', timesPerPeriod: 3, period: 'day' as const, duration: 5, durationUnit: 'day' as const, refills: 0 };
const dispenser = { identificationType: 'National ID' as const, identificationNumber: '26802244' };
const product = (quantity: number) => [{ productCode: 'AMOX-500-CAP-GSK', priceKes: 12.5, quantity }];

describe('the pharmacy finds the visit a ward opened', () => {
  let wardVisitId: string;
  let pharmacyVisitId: string;
  let code: string;
  let written: CommandOutput<'prescription.write'>;

  it('finds no open visit before the ward opens one, and a consent for one is refused with nothing opened', async () => {
    const patient = await pharmacy.ok('patient.lookUp', { idType: 'National ID', idNumber: NATIONAL_ID, answerAt: 'details' });
    expect((await pharmacy.ok('pharmacy.openVisits', { patientRef: patient.patientRef })).visits).toEqual([]);
    const refused = await pharmacy.refused('consent.begin', { patientRef: patient.patientRef, interventionCode: patient.suggestedIntervention!.code, forOpenVisit: true });
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { field: 'interventionCode' } });
    expect(refused.message).toMatch(/no open visit/);
    expect(authorizationsOf(cr)).toEqual([]);
    expect(claimsOf(cr)).toEqual([]);
  });

  it('lists the ward’s open visit by its intervention, not yet held by the pharmacy, with no token in the answer', async () => {
    const wardRef = await lookUp(ward);
    const consent = await ward.ok('consent.begin', { patientRef: wardRef });
    code = consent.intervention.code;
    await consentBySms(ward, consent.workflowId);
    wardVisitId = (await visitOpenedBy(ward, consent.workflowId)).workflowId;
    written = await ward.ok('prescription.write', { workflowId: wardVisitId, prescriber, items: [amoxicillin] });

    const patientRef = await lookUp(pharmacy);
    const found = await pharmacy.ok('pharmacy.openVisits', { patientRef });
    expect(found.visits).toEqual([{ interventions: [{ code, name: consent.intervention.name }], workflowId: null, openedHere: false, prescription: null, dispenses: [] }]);
    const [authorization] = authorizationsOf(cr);
    expect(JSON.stringify(found)).not.toContain(authorization!.guid);
    expect(JSON.stringify(found)).not.toContain(authorization!.token);
  });

  it('a consent by SMS code at the window reaches the ward’s visit: no second claim, and the visit is now held here', async () => {
    const patientRef = await lookUp(pharmacy);
    const consent = await pharmacy.ok('consent.begin', { patientRef, interventionCode: code, forOpenVisit: true });
    await consentBySms(pharmacy, consent.workflowId);
    const opened = await pharmacy.ok('workflow.get', { workflowId: consent.workflowId });
    expect(opened).toMatchObject({ state: 'visit-opened' });
    const visitId = opened.kind === 'consent' ? opened.visitWorkflowId : null;
    expect(visitId).not.toBeNull();
    expect(visitId).not.toBe(wardVisitId);
    expect((await pharmacy.ok('workflow.get', { workflowId: visitId! })).lastError).toBeNull();
    expect(claimsOf(cr)).toHaveLength(1);
    const [held] = (await pharmacy.ok('pharmacy.openVisits', { patientRef })).visits;
    expect(held).toMatchObject({ workflowId: visitId, openedHere: false, prescription: { exchangeCode: written.exchangeCode, status: 'ACTIVE', reviewStatus: 'PENDING', medicines: ['AMOX-500'] }, dispenses: [] });
    pharmacyVisitId = visitId!;
  });

  it('dispenses part of the ward’s prescription, then the rest, under the same claim at SHA', async () => {
    const partial = await pharmacy.ok('pharmacy.dispense', { workflowId: pharmacyVisitId, dispenser, products: product(6), completesFill: false });
    expect(partial.dispenses).toEqual([expect.objectContaining({ state: 'dispensed', status: 'DISPENSED', completesFill: false, products: product(6) })]);
    const rest = await pharmacy.ok('pharmacy.dispense', { workflowId: pharmacyVisitId, dispenser, products: product(9), completesFill: true });
    expect(rest.dispenses.map((d) => d.completesFill)).toEqual([false, true]);
    const [claim] = claimsOf(cr);
    expect(world.sandbox.context.state.dispenses.filter((d) => d.consent_token === claim!.consent_token)).toHaveLength(2);
    const patientRef = await lookUp(pharmacy);
    expect((await pharmacy.ok('pharmacy.openVisits', { patientRef })).visits[0]?.dispenses).toHaveLength(2);
  });

  it('leaves the ward’s claim to the ward: no line, prescription or visit end from the pharmacy, only the preview offered', async () => {
    const visit = await pharmacy.ok('workflow.get', { workflowId: pharmacyVisitId });
    expect(visit.next).toEqual(['visit.preview']);
    expect(await pharmacy.refused('visit.addLine', { workflowId: pharmacyVisitId, unitPriceKes: 500, quantity: 1, diagnoses: [{ code: '1F40.Z' }] })).toMatchObject({ code: 'WRONG_STATE' });
    expect(await pharmacy.refused('prescription.write', { workflowId: pharmacyVisitId, prescriber, items: [amoxicillin] })).toMatchObject({ code: 'WRONG_STATE' });
    expect(await pharmacy.refused('discharge.begin', { workflowId: pharmacyVisitId })).toMatchObject({ code: 'WRONG_STATE' });
    expect(await pharmacy.refused('visit.close', { workflowId: pharmacyVisitId, reason: 'NO_SERVICE_GIVEN', explanation: 'Not the pharmacy’s to close.' })).toMatchObject({ code: 'WRONG_STATE' });
  });

  it('dispenses at the window only under a visit reached there, not under the ward’s own visit', async () => {
    const wardRef = await lookUp(ward);
    expect((await ward.ok('pharmacy.openVisits', { patientRef: wardRef })).visits).toEqual([expect.objectContaining({ workflowId: wardVisitId, openedHere: true, prescription: null })]);
    const refused = await ward.refused('pharmacy.dispense', { workflowId: wardVisitId, dispenser, products: product(1), completesFill: true });
    expect(refused).toMatchObject({ code: 'WRONG_STATE' });
  });

  it('a consent by fingerprint reaches it too: SHA answers the open visit’s authorization, with no finger asked', async () => {
    const patientRef = await lookUp(pharmacy);
    const consent = await pharmacy.ok('consent.begin', { patientRef, interventionCode: code, forOpenVisit: true });
    const started = await pharmacy.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    expect(started).toMatchObject({ state: 'visit-opened' });
    expect(claimsOf(cr)).toHaveLength(1);
    expect(authorizationsOf(cr).map((a) => a.status)).toEqual(['AUTHORIZED']);
  });

  it('a visit answered with another authorization than the one listed (a new visit, after all) is marked to be closed, never dispensed under', async () => {
    // A third station whose visit answers name another authorization, as a visit SHA opened anew would.
    const mistaken = await world.station({
      extra: {
        exchangeClientFactory: (options: ExchangeClientOptions): ExchangeClient => {
          const client = createExchangeClient(options);
          return { ...client, claims: { ...client.claims, createVisit: async (request, call) => ({ ...(await client.claims.createVisit(request, call)), authorizationGuid: 'another-authorization' }) } };
        },
      },
    });
    const patientRef = await lookUp(mistaken);
    const consent = await mistaken.ok('consent.begin', { patientRef, interventionCode: code, forOpenVisit: true });
    await consentBySms(mistaken, consent.workflowId);
    const opened = await mistaken.ok('workflow.get', { workflowId: consent.workflowId });
    const visitId = opened.kind === 'consent' ? opened.visitWorkflowId : null;
    const visit = await mistaken.ok('workflow.get', { workflowId: visitId! });
    expect(visit.lastError).toMatchObject({ code: 'WRONG_STATE' });
    expect(visit.lastError?.message).toMatch(/close this visit as opened by mistake/);
    expect(await mistaken.refused('pharmacy.dispense', { workflowId: visitId!, dispenser, products: product(1), completesFill: true })).toMatchObject({ code: 'WRONG_STATE' });
    expect((await mistaken.ok('pharmacy.openVisits', { patientRef })).visits).toEqual([expect.objectContaining({ workflowId: null })]);
  });

  it('once the ward closes the visit, the pharmacy finds none, and a consent begun before is refused before any visit is posted', async () => {
    const patientRef = await lookUp(pharmacy);
    const consent = await pharmacy.ok('consent.begin', { patientRef, interventionCode: code, forOpenVisit: true });
    await ward.ok('visit.close', { workflowId: wardVisitId, reason: 'NO_SERVICE_GIVEN', explanation: 'The patient left before being seen.' });
    expect((await pharmacy.ok('pharmacy.openVisits', { patientRef })).visits).toEqual([]);
    await pharmacy.ok('consent.sendSms', { workflowId: consent.workflowId });
    const refused = await pharmacy.refused('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    expect(refused).toMatchObject({ code: 'WRONG_STATE' });
    expect(refused.message).toMatch(/no longer lists this patient’s visit as open/);
    expect(claimsOf(cr)).toHaveLength(1);
  });
});
