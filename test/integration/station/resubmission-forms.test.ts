// Issue 25: the station sends a returned claim back in whichever documented form its exchange
// serves. Against stand-ins in front of the sandbox that serve one form each, it tries the forms in
// order on "no such route" only, remembers per exchange origin the one that answered (across a
// restart too), tries it first next time, and its activity record names the route used.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../electron/station';
import { startOneFormExchange, type OneFormExchange } from '../../support/one-form-exchange';
import { FACILITIES, openStation, startWorld, submitBySmsCode, type StationHandle, type World } from './harness';

let world: World;
let ampathOnly: OneFormExchange;
let postmanOnly: OneFormExchange;
let cr: string;

const RESUBMISSION = /^POST \/api\/v1\/claims\/(lines\/resubmit|resubmit|submit|preview)$/;

beforeAll(async () => {
  world = await startWorld();
  ampathOnly = await startOneFormExchange(world.sandbox.url, 'POST /api/v1/claims/submit');
  postmanOnly = await startOneFormExchange(world.sandbox.url, 'POST /api/v1/claims/resubmit', 405);
  cr = await world.control.crIdOf('30000002');
});
afterAll(async () => {
  await ampathOnly.close();
  await postmanOnly.close();
  await world.close();
});

const IT_OFFICER_PIN = '771199';
// The station's key store outlives a restart, as the OS keystore does: the journal is opened with it.
const keystore = memorySecretStore();

/** A training station on `exchange`, with the IT officer signed in: moving the exchange is hers to do. */
async function stationOn(exchange: OneFormExchange, databasePath: string): Promise<StationHandle> {
  const handle = await openStation({
    databasePath,
    sandboxUrl: exchange.url,
    secrets: keystore,
    extra: {
      clock: { now: () => world.sandbox.context.clock.now() },
      provisioning: { source: 'launcher', settings: {}, staff: [{ name: 'IT officer', role: 'administrator', pin: IT_OFFICER_PIN }] },
    },
  });
  world.stations.push(handle);
  await handle.ok('station.unlock', { pin: IT_OFFICER_PIN });
  return handle;
}

/** Flow B by SMS code to the submit, then SHA's side returns the claim for correction: the visit's workflow id and the claim's token. */
async function returnedClaim(s: StationHandle): Promise<{ visitId: string; token: string }> {
  const visitId = await submitBySmsCode(s, world.control, '30000002', 700);
  const token = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1)!.consent_token;
  for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'ON_HOLD']) await world.control.post(`/claims/${encodeURIComponent(token)}/workflow-state`, { to });
  await s.ok('claims.list', { checkWithSha: true });
  return { visitId, token };
}

/** The resubmission requests a stand-in saw during `act` (and the preview among them). */
async function resubmissionCalls(exchange: OneFormExchange, act: () => Promise<unknown>): Promise<string[]> {
  const mark = exchange.mark();
  await act();
  return exchange.since(mark).filter((kind) => RESUBMISSION.test(kind));
}

async function lastResubmissionRecord(s: StationHandle, visitId: string): Promise<string> {
  const audit = await s.ok('audit.read', { workflowId: visitId, page: 1, pageSize: 200 });
  const entry = audit.items.filter((e) => e.action === 'exchange.claims.resubmit' && e.summary.startsWith('resubmitted by')).sort((a, b) => b.seq - a.seq)[0];
  expect(entry, 'the activity record of the resubmission').toBeDefined();
  return entry!.summary;
}

describe('a returned claim sent back in the form its exchange serves', () => {
  const dbPath = () => join(world.dir.path, 'resubmission-forms.db');

  it('finds AMPATH’s form where only it is served, remembers it, and keeps it per exchange and across a restart', { timeout: 90_000 }, async () => {
    const s = await stationOn(ampathOnly, dbPath());
    const first = await returnedClaim(s);

    // First time at this exchange: the portal's route, then (the claim found by the preview) Postman's, then AMPATH's.
    const tried = await resubmissionCalls(ampathOnly, () => s.ok('claims.resubmit', { workflowId: first.visitId }));
    expect(tried).toEqual(['POST /api/v1/claims/lines/resubmit', 'POST /api/v1/claims/preview', 'POST /api/v1/claims/resubmit', 'POST /api/v1/claims/submit', 'POST /api/v1/claims/preview']);
    expect((await s.ok('claims.get', { workflowId: first.visitId })).status).toBe('DRAFT_RESUBMIT');
    expect(await lastResubmissionRecord(s, first.visitId)).toBe(
      'resubmitted by POST /api/v1/claims/submit (AMPATH’s form); no such route at this exchange: POST /api/v1/claims/lines/resubmit, POST /api/v1/claims/resubmit',
    );

    // Sent back: the remembered form first, and nothing else.
    const again = await resubmissionCalls(ampathOnly, () => s.ok('claims.resubmit', { workflowId: first.visitId }));
    expect(again).toEqual(['POST /api/v1/claims/submit', 'POST /api/v1/claims/preview']);
    expect((await s.ok('claims.get', { workflowId: first.visitId })).status).toBe('SUBMITTED');
    expect(await lastResubmissionRecord(s, first.visitId)).toBe('resubmitted by POST /api/v1/claims/submit (AMPATH’s form, the one this exchange took before)');

    // Another exchange (another origin) is asked afresh: there 405 says "no such route", no preview needed.
    await s.ok('settings.update', { exchangeBaseUrl: postmanOnly.url, allowedLinkOrigins: [postmanOnly.url] });
    await s.ok('facility.signIn', { clientId: FACILITIES.hospital.clientId, clientSecret: FACILITIES.hospital.clientSecret });
    const second = await returnedClaim(s);
    const atPostman = await resubmissionCalls(postmanOnly, () => s.ok('claims.resubmit', { workflowId: second.visitId }));
    expect(atPostman).toEqual(['POST /api/v1/claims/lines/resubmit', 'POST /api/v1/claims/resubmit', 'POST /api/v1/claims/preview']);
    expect(await lastResubmissionRecord(s, second.visitId)).toBe(
      'resubmitted by POST /api/v1/claims/resubmit (the Postman collection’s form); no such route at this exchange: POST /api/v1/claims/lines/resubmit',
    );

    // Back at the first exchange, after a restart: what it took is still remembered.
    await s.ok('settings.update', { exchangeBaseUrl: ampathOnly.url, allowedLinkOrigins: [ampathOnly.url] });
    await s.station.stop();
    world.stations.splice(world.stations.indexOf(s), 1);
    const restarted = await stationOn(ampathOnly, dbPath());
    const afterRestart = await resubmissionCalls(ampathOnly, () => restarted.ok('claims.resubmit', { workflowId: second.visitId }));
    expect(afterRestart).toEqual(['POST /api/v1/claims/submit', 'POST /api/v1/claims/preview']);
    expect((await restarted.ok('claims.get', { workflowId: second.visitId })).status).toBe('SUBMITTED');
  });
});
