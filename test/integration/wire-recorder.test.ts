// The station's wire held to docs/exchange-wire.md. A stand-in exchange on loopback (the wire
// recorder) answers every request with the response fixtures of test/fixtures/wire/; the station is
// started as a process (`npm run station:web -- --exchange <stand-in> …`) and driven over its bridge
// as the renderer drives it: flow B by SMS code and by fingerprint (look-up, consent, visit open), a
// billing line with a diagnosis and an attachment, the preview, the visit-end consent and the submit,
// the elective pre-visit consent (OTP authorize), the emergency create (the claim, its protocol,
// the doctor's approval asked), and issue 15's reads with a referral submit (the facility registry,
// the beds, POMSF balance and tariffs, the shared health record's two headers). Every request the station sends is checked against the page (names,
// types, encoding); a failure names the request, the entry and the row it broke.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, CommandOutput, WorkflowView } from '../../electron/contract';
import { operations } from '../../electron/payer';
import { freePort } from '../../scripts/station-web-runtime';
import { checkRequest, formatRequestCheck } from '../support/wire-check';
import { readWireDoc } from '../support/wire-doc';
import { fixtureStandIn, loadWireFixtures, shadowedStandInAnswers, type StandInOnlyAnswer, type WireFixture } from '../support/wire-fixtures';
import { startWireRecorder, type Recorded, type WireRecorder } from '../support/wire-recorder';
import { connectBridge, secretOf, type BridgeClient } from './browser-host/bridge-client';
import { startStationWeb, urlIn, type StationWebProcess } from '../support/station-web-process';

const doc = readWireDoc();
const { fixtures } = loadWireFixtures(operations);

/**
 * Answers for operations no fixture documents, each following its entry in docs/exchange-wire.md.
 * Kept apart from the fixtures; the test below fails once a fixture of the same operation exists.
 */
const standInOnly: Record<string, StandInOnlyAnswer> = {
  // The visit-end SMS code: no public source shows its answer, and the client needs nothing from it.
  'consent.sendDischargeOtp': {
    status: 200,
    body: { message: 'OTP sent to +254712***345' },
    entry: 'docs/exchange-wire.md, consent.sendDischargeOtp, Read table: `message` string, no (no source shows the answer; read like the send OTP\'s)',
  },
  // The tariffs' answer: no source shows it (field notes: response [?]); the sandbox's shape, which the station reads.
  'eligibility.resolvePmfTariffs': {
    status: 200,
    body: { fr_code: 'FID-00-000004-0', scheme: 'POMSF', tariffs: [{ intervention_code: 'SHA-04-001', name: 'General ward inpatient day', tariff: 4800, currency: 'KES' }] },
    entry: 'docs/exchange-wire.md, eligibility.resolvePmfTariffs, Read table: `tariffs[].intervention_code`, `name`, `tariff`, `currency` (the sandbox\'s answer, none)',
  },
  // A searchset bundle as R's copy of the SHR docs shows it, one Observation with its labels in meta.security.
  'shr.observations': {
    status: 200,
    body: {
      resourceType: 'Bundle',
      type: 'searchset',
      total: 1,
      link: [],
      entry: [
        {
          resource: {
            resourceType: 'Observation',
            id: 'obs-1',
            meta: { security: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'N' }] },
            status: 'final',
            code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] },
            effectiveDateTime: '2026-11-20T08:00:00+03:00',
            valueQuantity: { value: 72, unit: '/min' },
          },
        },
      ],
    },
    entry: 'docs/exchange-wire.md, shr.observations, Read table: `resourceType`, `type`, `total`, `entry[].resource` with `meta.security[]`, `code.coding[].display`, `valueQuantity`, `effectiveDateTime`',
  },
};

const text = (f: WireFixture) => JSON.stringify(f.body);
/** The first fixture that fits what a flow needs, else the first: the flow then says what it missed. */
const prefer = (fits: (f: WireFixture) => boolean) => (own: readonly WireFixture[]) => own.find(fits) ?? own[0];

/** Where an operation has several fixtures, the one each flow needs (the assumptions the report lists). */
const choose = {
  // SMS consent needs a member the facility may reach by SMS code: whitelisted, or biometrics not enforced.
  'eligibility.check': prefer((f) => /"whitelistedForOTP":\s*true|"facilityBiometricsEnforced":\s*false/.test(text(f))),
  // The look-up of a fingerprint authorization that the patient completed.
  'consent.getAuthorization': prefer((f) => /"status":\s*"AUTHORIZED"/.test(text(f))),
  // The elective pre-visit consent is given by the OTP authorize.
  'consent.authorizeOtp': prefer((f) => /"status":\s*"AUTHORIZED/.test(text(f))),
  // Flow B's capitation intervention (not the empty answer for an unknown sub-benefit); for the
  // elective flow, a list holding an intervention whose preauth the payer approves by hand.
  'eligibility.interventions': (own: readonly WireFixture[]) => prefer((f) => interventionsWanted.test(text(f)))(own),
  // The emergency happens now: the fixture's own dates have long passed, and a claim whose 24 hours
  // are over is one the station (rightly) no longer works on.
  'emergency.createClaim': (own: readonly WireFixture[]) => own[0] && happeningNow(own[0]),
};
const HOUR_MS = 3600 * 1000;
/** An emergency claim fixture with its start (and admission) now and its expiry 24 hours on: values only, the shape untouched. */
function happeningNow(fixture: WireFixture): WireFixture {
  if (fixture.body === null || typeof fixture.body !== 'object' || Array.isArray(fixture.body)) return fixture;
  const now = Date.now();
  const at = (ms: number) => new Date(ms).toISOString();
  return { ...fixture, body: { ...fixture.body, admitted_on: at(now), visit_start: at(now), emergency_visit_expiry: at(now + 24 * HOUR_MS) } };
}
const capitationInterventions = /"paymentMechanism":\s*"CAPITATION"/;
const electiveInterventions = /"needsManualPreauthApproval":\s*true/;
let interventionsWanted = capitationInterventions;

const CLIENT_ID = 'stand-in-facility';
const SECRET = 'stand-in-client-secret-7c1e';
const FACILITY = { code: 'FID-00-000004-0', name: 'Stand-in Hospital', agent: '22334455' };
const DOCTOR = { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
/** What the nurse types on the emergency screen: an emergency intervention (SHA-01-…). */
const EMERGENCY_INTERVENTION = 'SHA-01-001';
/** A small PDF as the renderer sends an attachment: base64 in the command. */
const PDF_BASE64 = Buffer.from('%PDF-1.4\n% malaria smear, positive\n%%EOF\n').toString('base64');

let dir: string;
let exchange: WireRecorder;
let station: StationWebProcess;
let bridge: BridgeClient;
/** The requests of the start-up: the sign-in. */
let signedIn = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idhini-wire-recorder-'));
  const secretFile = join(dir, 'client-secret');
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
  exchange = await startWireRecorder({ standIn: fixtureStandIn({ operations, doc, fixtures, standInOnly, choose }) });
  station = await startStationWeb(
    [
      ...['--port', '0', '--exchange', exchange.url, '--client-id', CLIENT_ID, '--client-secret-file', secretFile],
      ...['--facility-code', FACILITY.code, '--facility-name', FACILITY.name, '--agent-id', FACILITY.agent],
      ...['--device-service-port', String(await freePort()), '--data-dir', join(dir, 'data')],
      // Outside training the station opens with a staff member's PIN.
      ...['--staff', 'Ward nurse:2468'],
    ],
    1,
  );
  const launchUrl = urlIn(station.lines[0]);
  bridge = await connectBridge(new URL(launchUrl).origin, secretOf(launchUrl));
  await bridge.invoke('station.unlock', { pin: '2468' });
  signedIn = exchange.mark();
}, 150_000);

afterAll(async () => {
  bridge?.close();
  await station?.stop();
  await exchange?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A command over the bridge that must succeed (its refusal, with the station's code, ends the flow). */
async function ok<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
  const outcome = await bridge.invoke(name, input);
  if (!outcome.ok) throw new Error(`${name} refused: ${outcome.error?.code ?? ''} ${outcome.error?.message ?? ''}`);
  return outcome.value as CommandOutput<N>;
}

/** Reads a workflow until it is in one of the states wanted (fingerprint look-ups run in the background). */
async function until(workflowId: string, states: readonly string[], what: string, timeoutMs = 20_000): Promise<WorkflowView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await ok('workflow.get', { workflowId });
    if (states.includes(view.state)) return view;
    if (Date.now() > deadline) throw new Error(`${what}: the workflow stayed ${view.state}${view.lastError ? ` (${view.lastError.code}: ${view.lastError.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function lookUp(idNumber: string) {
  const patient = await ok('patient.lookUp', { idType: 'National ID', idNumber });
  if (!patient.covered) throw new Error('the eligibility fixture answers a member who is not covered');
  return patient;
}

/** A scenario's intervention among the patient's, as the nurse's list shows them. */
async function interventionOf(patientRef: string, scenario: 'capitation' | 'elective-preauth'): Promise<string> {
  const page = await ok('benefits.interventions', { patientRef, scenario, pageSize: 100 });
  const found = page.items[0];
  if (found === undefined) throw new Error(`no ${scenario} intervention among the interventions fixture's entries`);
  return found.code;
}

/** The visit a confirmed SMS code opened (the visit is the consent), or the one visit.open opens now. */
async function visitOf(view: WorkflowView): Promise<CommandOutput<'visit.open'>> {
  if ('visitWorkflowId' in view && view.visitWorkflowId !== null) {
    const visit = await ok('workflow.get', { workflowId: view.visitWorkflowId });
    if (visit.kind !== 'visit') throw new Error(`${view.visitWorkflowId} is a ${visit.kind} workflow`);
    return visit;
  }
  return ok('visit.open', { workflowId: view.workflowId, doctor: DOCTOR });
}

interface Outcome {
  readonly failure: string | undefined;
  readonly requests: readonly Recorded[];
}

/** Runs one flow and keeps the requests the station sent meanwhile, whether or not the flow got through. */
async function drive(flow: () => Promise<void>): Promise<Outcome> {
  const mark = exchange.mark();
  let failure: string | undefined;
  try {
    await flow();
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  // Requests the flow set off in the background (look-ups of a fingerprint request) land too.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { failure, requests: exchange.since(mark) };
}

/** Every request of the flow held to the page; one message naming each broken request, entry and row. */
function expectWire(outcome: Outcome, extra: readonly string[] = []): void {
  const broken = outcome.requests.map((r) => ({ r, check: checkRequest(r, doc) })).filter(({ check }) => check.problems.length > 0);
  // The station reports a 501 as an exchange not working: the stand-in's own words say what is missing.
  const unanswered = outcome.requests
    .filter((r) => r.answer?.status === 501)
    .map((r) => `#${r.seq} ${r.method} ${r.path}: the stand-in had no answer: ${(r.answer?.json as { message?: string } | undefined)?.message ?? r.answer?.text ?? ''}`);
  const report = [
    outcome.failure === undefined ? null : `the flow stopped: ${outcome.failure}`,
    ...unanswered,
    ...extra,
    ...broken.map(({ r, check }) => formatRequestCheck(check, r.seq)),
  ].filter((line): line is string => line !== null);
  const sent = outcome.requests.map((r) => `#${r.seq} ${r.method} ${r.path}${r.operation === undefined ? '' : ` (${r.operation})`} → ${r.answer?.status ?? 'no answer'}`);
  expect(report, `${report.join('\n')}\n\nrequests of this flow:\n${sent.join('\n')}`).toEqual([]);
}

/** A flow waits on the station's own timers (a fingerprint look-up every 3 s). */
const FLOW_MS = 60_000;

const ofOperation = (requests: readonly Recorded[], operation: string) => requests.filter((r) => r.operation === operation);

describe('the station against a stand-in exchange answering with the fixtures', () => {
  it('has no stand-in-only answer for an operation that now has a fixture', () => {
    expect(shadowedStandInAnswers(fixtures, standInOnly), 'drop these stand-in-only answers: the fixtures answer them').toEqual([]);
  });

  it('signs in at start: the token request', () => {
    const startup = exchange.records.slice(0, signedIn);
    expectWire({ failure: undefined, requests: startup }, ofOperation(startup, 'auth.token').length > 0 ? [] : ['the station sent no token request at start']);
  });

  let smsVisit: string | undefined;

  it('flow B by SMS code: look-up, consent, the code spent on the visit (no authorize)', async () => {
    const outcome = await drive(async () => {
      const patient = await lookUp('30000002');
      if (!patient.badges.smsCodeAllowed) throw new Error('the eligibility and contacts fixtures allow no SMS code (not whitelisted, biometrics enforced, or no phone)');
      const consent = await ok('consent.begin', { patientRef: patient.patientRef, interventionCode: await interventionOf(patient.patientRef, 'capitation') });
      await ok('consent.sendSms', { workflowId: consent.workflowId });
      const confirmed = await ok('consent.confirmSms', { workflowId: consent.workflowId, code: '482913' });
      const visit = await visitOf(confirmed);
      if (visit.state !== 'open') throw new Error(`the visit is ${visit.state}`);
      smsVisit = visit.workflowId;
    });
    const authorizes = ofOperation(outcome.requests, 'consent.authorizeOtp');
    expectWire(outcome, authorizes.map((r) => `#${r.seq} POST ${r.path}: the outpatient SMS path sends no authorize; the visit with \`otp\` is the consent (issue 9)`));
  }, FLOW_MS);

  it('billing: a line with a diagnosis and an attachment, the preview, the visit-end code and the submit', async () => {
    const outcome = await drive(async () => {
      if (smsVisit === undefined) throw new Error('flow B by SMS code opened no visit to bill');
      await ok('visit.attachDoctor', { workflowId: smsVisit, doctor: DOCTOR });
      const line: CommandInput<'visit.addLine'> = {
        workflowId: smsVisit,
        unitPriceKes: 1500,
        quantity: 1,
        diagnoses: [{ code: '1F40.0' }],
        attachments: [{ documentType: 'LAB_RESULTS', title: 'Malaria smear', fileName: 'smear.pdf', contentType: 'application/pdf', dataBase64: PDF_BASE64 }],
      };
      await ok('visit.addLine', line);
      await ok('visit.preview', { workflowId: smsVisit });
      const discharge = await ok('discharge.begin', { workflowId: smsVisit });
      await ok('consent.sendSms', { workflowId: discharge.workflowId });
      await ok('consent.confirmSms', { workflowId: discharge.workflowId, code: '730155' });
      const submitted = await ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
      if (submitted.state !== 'submitted') throw new Error(`the claim is ${submitted.state} after the submit`);
    });
    const files = outcome.requests.filter((r) => r.body.encoding === 'multipart' && r.body.files.length > 0);
    expectWire(outcome, files.length > 0 ? [] : ['no request carried the attachment as a file part']);
  }, FLOW_MS);

  it('flow B by fingerprint: look-up, the authorization, its look-up AUTHORIZED, the visit opened', async () => {
    const outcome = await drive(async () => {
      const patient = await lookUp('30000001');
      const consent = await ok('consent.begin', { patientRef: patient.patientRef, interventionCode: await interventionOf(patient.patientRef, 'capitation') });
      const started = await ok('consent.startFingerprint', { workflowId: consent.workflowId });
      const verified = await until(started.workflowId, ['verified', 'visit-opened'], 'the look-up of the fingerprint authorization');
      const visit = await visitOf(verified);
      if (visit.state !== 'open') throw new Error(`the visit is ${visit.state}`);
    });
    expectWire(outcome);
  }, FLOW_MS);

  it('issue 15: the facility registry, the beds, POMSF, the shared health record, and a referral submit naming its destination', async () => {
    const outcome = await drive(async () => {
      const patient = await lookUp('30000001');
      const consent = await ok('consent.begin', { patientRef: patient.patientRef, interventionCode: await interventionOf(patient.patientRef, 'capitation') });
      const started = await ok('consent.startFingerprint', { workflowId: consent.workflowId });
      const visit = await visitOf(await until(started.workflowId, ['verified', 'visit-opened'], 'the look-up of the fingerprint authorization'));
      const found = await ok('facilities.search', { search: 'Kiambu' });
      const destination = found.items[0];
      if (destination === undefined) throw new Error('the facility search fixture answered no facility');
      await ok('beds.occupancy', {});
      await ok('pomsf.balance', { patientRef: patient.patientRef });
      await ok('pomsf.tariffs', { interventionCodes: ['SHA-04-001'], doctor: { registrationNumber: 'A12345', regulationBody: 'KMPDC' } });
      const record = await ok('shr.record', { workflowId: visit.workflowId, practitionerId: 'NCK-118822' });
      if (record.observations.length !== 1) throw new Error(`the record shows ${record.observations.length} observations`);
      await ok('visit.attachDoctor', { workflowId: visit.workflowId, doctor: DOCTOR });
      const discharge = await ok('discharge.begin', { workflowId: visit.workflowId });
      await ok('consent.startFingerprint', { workflowId: discharge.workflowId });
      await until(discharge.workflowId, ['ready'], 'the visit-end fingerprint');
      const submitted = await ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'REFERRED', referredTo: destination.code });
      if (submitted.kind !== 'discharge' || submitted.referredTo?.code !== destination.code) throw new Error('the submit does not name the destination');
    });
    const submit = ofOperation(outcome.requests, 'claims.submit').at(-1);
    const notes = submit?.body.encoding === 'json' ? String((submit.body.value as { notes?: unknown }).notes ?? '') : '';
    const read = ['lookups.searchFacilities', 'lookups.bedOccupancy', 'eligibility.pomsfBalance', 'eligibility.resolvePmfTariffs', 'shr.observations', 'shr.serviceRequests'].filter((op) => ofOperation(outcome.requests, op).length === 0);
    expectWire(outcome, [...read.map((op) => `no ${op} request`), ...(notes.startsWith('Referred to ') ? [] : [`the submit's notes do not name the destination: "${notes}"`])]);
  }, FLOW_MS);

  it('the elective pre-visit consent: the OTP authorize with the intervention', async () => {
    interventionsWanted = electiveInterventions;
    const outcome = await drive(async () => {
      const patient = await lookUp('30000005');
      const elective = await ok('elective.begin', { patientRef: patient.patientRef, interventionCode: await interventionOf(patient.patientRef, 'elective-preauth') });
      await ok('consent.sendSms', { workflowId: elective.workflowId });
      await ok('consent.confirmSms', { workflowId: elective.workflowId, code: '615204' });
      await until(elective.workflowId, ['verified', 'creating-preauth', 'awaiting-doctor', 'awaiting-payer', 'finalised'], 'the pre-visit consent');
    });
    interventionsWanted = capitationInterventions;
    const authorizes = ofOperation(outcome.requests, 'consent.authorizeOtp');
    expectWire(outcome, authorizes.length > 0 ? [] : ['the elective pre-visit consent sent no OTP authorize']);
  }, FLOW_MS);

  it('the emergency create: the intervention’s protocols, the claim for an unidentified patient, its protocol, the doctor asked', async () => {
    const outcome = await drive(async () => {
      // As the emergency screen does: the nurse types the emergency intervention (no patient to
      // look up), the station lists its protocols, one is chosen.
      const protocols = await ok('emergency.protocols', { interventionCode: EMERGENCY_INTERVENTION });
      const protocol = protocols.items[0];
      if (protocol === undefined) throw new Error('the protocols fixture lists no protocol with a tariff');
      const view = await ok('emergency.create', {
        interventionCode: protocol.interventionCode,
        protocolCode: protocol.protocolCode,
        doctor: DOCTOR,
        modeOfArrival: 'AMBULANCE',
        broughtBy: 'PARAMEDICS',
        referenceNumber: 'AMB-2231',
        notes: 'Road traffic accident, unconscious on arrival',
      });
      // The live flow has no doctor's code before the claim: created, then the protocol, then the doctor's approval asked.
      const why = view.lastError ? ` (${view.lastError.code}: ${view.lastError.message})` : '';
      if (view.state !== 'open-unidentified') throw new Error(`the emergency claim is ${view.state}${why}`);
      if (!view.protocolAdded) throw new Error(`the protocol is not on the claim${why}`);
      if (view.doctorApproval !== 'requested') throw new Error(`the doctor's approval is ${view.doctorApproval}${why}`);
    });
    const unsent = ['emergency.createClaim', 'emergency.addProtocol', 'emergency.requestDoctorApproval'].filter((op) => ofOperation(outcome.requests, op).length === 0);
    expectWire(outcome, unsent.map((op) => `the emergency flow sent no ${op} request`));
  }, FLOW_MS);
});
