// npm run fixture:data-folder -- [--name NAME]
//
// Makes this release's data-folder fixture (test/fixtures/data-folders/NAME): the station as a ward
// PC runs it in browser mode against the exchange (here the sandbox, in process), with a folder of
// its own — the database and browser mode's key store (`secrets.json`) — left with work in flight:
// a visit open, a consent waiting for the patient's SMS code, and an elective admission waiting for
// the doctor's approval. The station is driven only through its bridge, as a shell would, and every
// call to the sandbox goes through a recorder, whose log (exchange.json) lets a later test bring a
// fresh sandbox to the same state. Run it once per release, from that release's checkout, and commit
// the folder: test/integration/station/data-folders.test.ts runs every such folder on today's code.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CommandInput, CommandName, CommandOutput, StationEvent } from '../../electron/contract';
import { createExchangeClient } from '../../electron/payer';
import { startSandbox, TERMINOLOGY } from '../../electron/sandbox';
import { createStation, FileSecretStore, nativeReaders } from '../../electron/station';
import { EXCHANGE_FILE, MANIFEST_FILE, type ExchangeLog, type FixtureManifest } from './data-folder';
import { HERNIA_NOTES, HERNIA_PREAUTH } from './elective';
import { startWireRecorder } from './wire-recorder';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/data-folders');

const FACILITY = { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret', code: 'FID-00-000004-0', name: 'Idhini Demo Hospital' };
const IT_OFFICER = { name: 'IT officer', role: 'administrator' as const, pin: 'Admin7731' };
const NURSE = { name: 'Amina Wekesa', role: 'nurse' as const, pin: 'Ward4821', nationalId: '23456789' };
const DOCTOR = { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { name: { type: 'string' } } });
  const commit = git('rev-parse', 'HEAD');
  if (git('status', '--porcelain', '--', 'electron').length > 0) throw new Error('electron/ has uncommitted changes: make the fixture from a release as committed.');
  const name = values.name ?? `${new Date().toISOString().slice(0, 10)}-${commit.slice(0, 7)}`;
  const fixture = path.join(FIXTURES, name);
  if (existsSync(fixture) && readdirSync(fixture).length > 0) throw new Error(`${fixture} exists: a fixture is made once and never changed.`);
  const folder = path.join(fixture, 'station');
  mkdirSync(folder, { recursive: true });

  const seed = `idhini-data-folder-${name}`;
  const sandbox = await startSandbox({ port: 0, seed });
  const recorder = await startWireRecorder({ target: sandbox.url }, { now: () => sandbox.context.clock.now(), oneWriteAtATime: true });
  const events: StationEvent[] = [];
  const station = createStation({
    databasePath: path.join(folder, 'station.db'),
    secrets: new FileSecretStore(path.join(folder, 'secrets.json'), { platform: process.platform }),
    exchangeClientFactory: createExchangeClient,
    readers: nativeReaders({ localWorkstationId: 'WS-WARD-3-01' }),
    platform: 'win32',
    host: 'browser',
    appVersion: '0.1.0',
    log: { destination: { write: () => undefined } },
    // The station on sandbox time, so that a test can put both back at the same moment.
    clock: { now: () => sandbox.context.clock.now() },
    initialSettings: { defaultServiceType: 'OUTPATIENT' },
    // As `npm run station:web -- --exchange … --facility-code … --agent-id …` starts it.
    provisioning: {
      source: 'launcher',
      settings: {
        exchangeBaseUrl: recorder.url,
        trainingMode: false,
        facilityCode: FACILITY.code,
        facilityName: FACILITY.name,
        agentNationalId: '22334455',
        allowedLinkOrigins: [sandbox.url],
        terminology: TERMINOLOGY,
      },
      staff: [],
      allowLoopbackHttp: true,
    },
  });
  station.bridge.subscribe((event) => events.push(event));
  const ok = async <N extends CommandName>(command: N, input: CommandInput<N>): Promise<CommandOutput<N>> => {
    const outcome = await station.bridge.invoke(command, input);
    if (!outcome.ok) throw new Error(`${command} refused: ${JSON.stringify(outcome.error)}`);
    return outcome.value;
  };
  const world = (await (await fetch(`${sandbox.url}/sandbox/world`)).json()) as { patients: { identification_number: string; cr_id: string }[] };
  /** The patient at the authorization page: the link's capture call, through the recorder like every call. */
  const presentFinger = async (linkUrl: string, idNumber: string) => {
    const cr = world.patients.find((p) => p.identification_number === idNumber)!.cr_id;
    const fingers = (await (await fetch(`${sandbox.url}/sandbox/patients/${cr}/fingerprints`)).json()) as { template: string }[];
    const capture = new URL(linkUrl);
    const url = `${recorder.url}${capture.pathname}/capture${capture.search}`;
    const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ template: fingers[0]!.template }) });
    if (!answer.ok) throw new Error(`the page refused the finger: ${await answer.text()}`);
  };
  const until = async <T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await read();
      if (accept(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  try {
    await station.start();
    await station.signInFacility({ clientId: FACILITY.clientId, clientSecret: FACILITY.clientSecret });
    // A first start: the station asks for its administrator, who adds the ward's nurse; she signs in.
    await ok('staff.add', IT_OFFICER);
    await ok('station.unlock', { pin: IT_OFFICER.pin });
    await ok('staff.add', NURSE);
    await ok('station.unlock', { pin: NURSE.pin });

    // A visit open: 30000001 by fingerprint (the hospital enforces biometrics), the doctor named.
    const first = await ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await ok('consent.begin', { patientRef: first.patientRef });
    const awaiting = await ok('consent.startFingerprint', { workflowId: consent.workflowId });
    if (!('verification' in awaiting) || awaiting.verification?.fingerprint?.link == null) throw new Error('no authorization link');
    await presentFinger(awaiting.verification.fingerprint.link.url, '30000001');
    await ok('consent.checkFingerprint', { workflowId: consent.workflowId });
    const opened = await until(() => ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'the visit');
    if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('the consent opened no visit');
    const visit = await ok('visit.attachDoctor', { workflowId: opened.visitWorkflowId, doctor: DOCTOR });

    // An elective admission waiting for the doctor: 30000006 consents by fingerprint, the preauth
    // goes with a paper (which waits sealed in the folder until the doctor approves).
    const third = await ok('patient.lookUp', { idType: 'National ID', idNumber: '30000006', serviceType: 'INPATIENT' });
    const electives = await ok('benefits.interventions', { patientRef: third.patientRef, scenario: 'elective-preauth', pageSize: 5 });
    const elective = await ok('elective.begin', { patientRef: third.patientRef, interventionCode: electives.items[0]!.code });
    const phaseOne = await ok('consent.startFingerprint', { workflowId: elective.workflowId });
    if (!('verification' in phaseOne) || phaseOne.verification?.fingerprint?.link == null) throw new Error('no authorization link');
    await presentFinger(phaseOne.verification.fingerprint.link.url, '30000006');
    await until(() => ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'verified', 'phase one’s consent');
    const waiting = await ok('elective.submitPreauth', {
      workflowId: elective.workflowId,
      ...HERNIA_PREAUTH,
      clinicalNotes: HERNIA_NOTES,
      documents: [{ documentType: 'REQUEST_FORM_BY_RELEVANT_CONSULTANT', title: 'Surgeon’s request', fileName: 'request.pdf', contentType: 'application/pdf', dataBase64: PDF.toString('base64') }],
    });

    // Last, so that its code is still valid a minute after the station stops: a consent by SMS code
    // for 30000002 (whitelisted), the code sent and not yet typed.
    const second = await ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const smsConsent = await ok('consent.begin', { patientRef: second.patientRef });
    const codeSent = await ok('consent.sendSms', { workflowId: smsConsent.workflowId });

    const queue = await ok('work.queue', {});
    const stoppedAt = new Date(sandbox.context.clock.now()).toISOString();
    await station.stop();

    const stories: FixtureManifest['workflows'] = [
      { story: 'visit-open', workflowId: visit.workflowId, kind: visit.kind, state: visit.state, patient: { idType: 'National ID', idNumber: '30000001' } },
      { story: 'consent-awaiting-sms-code', workflowId: codeSent.workflowId, kind: codeSent.kind, state: codeSent.state, patient: { idType: 'National ID', idNumber: '30000002' } },
      { story: 'elective-awaiting-doctor', workflowId: waiting.workflowId, kind: waiting.kind, state: waiting.state, patient: { idType: 'National ID', idNumber: '30000006' } },
    ];
    const queued = new Set(JSON.stringify(queue).match(/wf_[A-Za-z0-9_-]+/g));
    for (const s of stories) if (!queued.has(s.workflowId)) throw new Error(`${s.story} is not in this release's work queue: the fixture would prove nothing`);
    const manifest: FixtureManifest = {
      format: 1,
      name,
      madeFrom: { commit, date: stoppedAt.slice(0, 10) },
      facility: FACILITY,
      staff: [
        { name: NURSE.name, role: NURSE.role, pin: NURSE.pin },
        { name: IT_OFFICER.name, role: IT_OFFICER.role, pin: IT_OFFICER.pin },
      ],
      station: { folder: 'station', database: 'station/station.db', secrets: 'station/secrets.json' },
      stoppedAt,
      workflows: stories,
    };
    const exchange: ExchangeLog = {
      format: 1,
      sandbox: { seed, origin: sandbox.url },
      calls: recorder.records.map((r) => {
        const { host: _host, ...headers } = r.headers;
        const query = new URLSearchParams(Object.entries(r.query).flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]))).toString();
        const reads = r.method === 'GET' || r.method === 'HEAD';
        return {
          seq: r.seq,
          at: r.at,
          method: r.method,
          url: `${r.path}${query === '' ? '' : `?${query}`}`,
          headers: Object.fromEntries(Object.entries(headers).filter((e): e is [string, string | string[]] => e[1] !== undefined)),
          body: r.raw.length === 0 ? null : r.raw.toString('base64'),
          status: r.answer?.status ?? 0,
          answer: reads ? null : (r.answer?.json ?? r.answer?.text ?? null),
        };
      }),
    };
    writeFileSync(path.join(fixture, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(path.join(fixture, EXCHANGE_FILE), `${JSON.stringify(exchange, null, 1)}\n`);
    const left = readdirSync(folder).filter((f) => f.endsWith('-wal') || f.endsWith('-shm'));
    if (left.length > 0) throw new Error(`the database was not closed cleanly: ${left.join(', ')}`);
    process.stdout.write(`${fixture}\n`);
  } finally {
    await station.stop();
    await recorder.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
