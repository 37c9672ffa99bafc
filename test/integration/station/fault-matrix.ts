// The fault matrix (issue 11): flows A, B (SMS code and fingerprint) and C driven through the
// station core's bridge by a nurse who does what the screen offers and tries again what it says
// may work, with a proxy between the station and the sandbox that spoils one exchange call. Every
// kind of call a flow makes meets each fault once (503, a dropped connection, no answer before
// the deadline, an unreadable 2xx, a lost answer). Each case runs on a fresh sandbox and station;
// what was lost or done twice is counted at the exchange, never read from the station.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandInput, CommandName, CommandOutcome, StationError, WorkflowView } from '../../../electron/contract';
import { operations } from '../../../electron/payer';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox';
import { startFaultProxy, type Fault, type FaultPlan, type FaultProxy } from '../../support/fault-proxy';
import { ControlApi, DOCTOR, HERNIA_NOTES, HERNIA_PREAUTH, openStation, presentAtPage, stepOf, SURGEON, type StationHandle } from './harness';

export type FlowName = 'B-sms' | 'B-fingerprint' | 'A' | 'A-sms' | 'C';

export interface CaseResult {
  readonly flow: FlowName;
  readonly plan: FaultPlan | null;
  /** The flow reached its end (claim submitted or discharged). */
  readonly completed: boolean;
  /**
   * Where it did not: a workflow left waiting for the nurse shows what happened and offers the
   * next step (an emergency claim whose creation went unanswered: check with SHA by the reference
   * number, then send it again — no look-up finds it).
   */
  readonly actionable: { readonly workflow: string; readonly code: string; readonly next: readonly string[] } | null;
  /** Where it was not: the last message the nurse was shown, and whether it tells her what to do. */
  readonly lastError: StationError | null;
  /** Records the exchange holds more than once, or not at all. */
  readonly lost: string[];
  readonly duplicated: string[];
  /** Usable consents left unused, and fingerprint requests still PENDING at the end. */
  readonly strayConsents: number;
  readonly strayPending: number;
  /** Every refusal the nurse was shown, with the command that met it. */
  readonly seen: readonly { command: string; code: string; retryable: boolean }[];
  /** Unfinished workflows that offer the nurse no step (a silent workflow). */
  readonly silent: string[];
  /** The armed fault was met (a case whose fault never fired proves nothing). */
  readonly fired: boolean;
  /** The kinds of exchange call the case saw, with how many of each. */
  readonly kinds: readonly { readonly kind: string; readonly count: number }[];
}

// The deadline is what a 'timeout' case waits for, so it is short; but a loopback call on a busy
// two-core machine has taken over 400 ms (the sign-in timed out), so it leaves room for load.
const TIMING = { authorizationPollMs: 40, preauthPollMs: 80, smsResendCooldownMs: 80, reconcileRetryMs: 120, exchangeTimeoutMs: 1200 };
export const NATIONAL_ID: Record<FlowName, string> = { 'B-sms': '30000002', 'B-fingerprint': '30000001', A: '30000001', 'A-sms': '30000002', C: '30000002' };
const REFERENCE = 'AMB-MATRIX-1';
const EMERGENCY_DOCTOR = { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' };
const PREAUTH = { ...HERNIA_PREAUTH, clinicalNotes: HERNIA_NOTES };

/** How a nurse reaches the station: its bridge, in this process or another. */
export type Invoke = <N extends CommandName>(name: N, input: CommandInput<N>) => Promise<CommandOutcome<N>>;

export class Nurse {
  lastError: StationError | null = null;
  /** Every refusal she was shown, with the command that met it. */
  readonly seen: { command: CommandName; code: string; retryable: boolean }[] = [];
  /** Codes she typed and the station could not use (spent, or refused): never typed again. */
  readonly typed = new Set<string>();
  constructor(private readonly invoke: Invoke) {}

  /** Does what the screen offers; a refusal is read (kept as the last message) and the screen looked at again. */
  async act<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutcome<N>> {
    const outcome = await this.invoke(name, input);
    if (!outcome.ok) {
      this.lastError = outcome.error;
      this.seen.push({ command: name, code: outcome.error.code, retryable: outcome.error.retryable });
      // What the station says may work after a moment: a moment.
      await pause(outcome.error.retryable ? 60 : 20);
    }
    return outcome;
  }

  async views(): Promise<WorkflowView[]> {
    const all = await this.invoke('workflow.list', { includeEnded: true });
    if (!all.ok) throw new Error(`workflow.list refused: ${JSON.stringify(all.error)}`);
    return all.value.items;
  }
}

/** Whether the screen offers the command now. */
const offers = (view: WorkflowView, command: CommandName) => (view.next as readonly string[]).includes(command);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const latest = (views: WorkflowView[], kind: WorkflowView['kind']) => views.filter((v) => v.kind === kind).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];

export interface Patient {
  readonly cr: string;
  readonly template: string;
}

/** The verification step as the nurse takes it: a finger at the page, or the code from the patient's phone. */
async function verify(nurse: Nurse, control: ControlApi, patient: Patient, view: WorkflowView, purpose: string, presented: Set<string>, bySms: boolean): Promise<void> {
  const step = stepOf(view);
  if (step === null) return;
  if (!bySms) {
    if (step.stage === 'awaiting-fingerprint' && step.fingerprint?.link) {
      if (!presented.has(step.fingerprint.link.handle)) {
        presented.add(step.fingerprint.link.handle);
        await presentAtPage(step.fingerprint.link.url, patient.template).catch(() => undefined);
      } else {
        await pause(30);
      }
      return;
    }
    if (offers(view, 'consent.startFingerprint')) await nurse.act('consent.startFingerprint', { workflowId: view.workflowId });
    else if (offers(view, 'consent.retry')) await nurse.act('consent.retry', { workflowId: view.workflowId });
    else await pause(30);
    return;
  }
  if (step.stage === 'sms-sent' && offers(view, 'consent.confirmSms')) {
    const code = await control.latestCodeOrNull({ patient_id: patient.cr }, purpose);
    // The patient has a code only if one was sent, and reads out each code once; else the screen's "send again".
    if (code !== null && !nurse.typed.has(code) && view.lastError?.code !== 'OTP_INVALID') {
      const confirmed = await nurse.act('consent.confirmSms', { workflowId: view.workflowId, code });
      // A code SHA never confirmed is tried again as the screen offers; one it spent or refused, not.
      if (confirmed.ok || (confirmed.error.code !== 'OTP_INVALID' && confirmed.error.code !== 'OUTCOME_UNKNOWN')) return;
      nurse.typed.add(code);
      if (confirmed.error.code === 'OUTCOME_UNKNOWN') return;
    }
  }
  if (offers(view, 'consent.sendSms')) await nurse.act('consent.sendSms', { workflowId: view.workflowId });
  else await pause(30);
}

/** The visit billed and ended as the nurse does it: the doctor, one line, the visit-end consent, submit or discharge. */
async function visitToEnd(nurse: Nurse, control: ControlApi, patient: Patient, views: WorkflowView[], presented: Set<string>, bySms: boolean, closeBy: 'submit' | 'discharge'): Promise<'done' | 'going'> {
  const discharge = latest(views, 'discharge');
  const visit = latest(views, 'visit');
  if (discharge?.kind === 'discharge' && (discharge.state === 'submitted' || discharge.state === 'discharged')) return 'done';
  if (discharge !== undefined && discharge.state !== 'cancelled') {
    if (discharge.state === 'verifying') await verify(nurse, control, patient, discharge, 'discharge', presented, bySms);
    else if (discharge.state === 'ready' && closeBy === 'submit') await nurse.act('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
    else if (discharge.state === 'ready') await nurse.act('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
    else await pause(30);
    return 'going';
  }
  if (visit?.kind !== 'visit') return 'going';
  if (visit.state !== 'open') await pause(30);
  else if (visit.doctor === null) await nurse.act('visit.attachDoctor', { workflowId: visit.workflowId, doctor: closeBy === 'discharge' ? SURGEON : DOCTOR });
  else if (!visit.lines.some((l) => !l.automatic) && visit.lastError?.code !== 'OUTCOME_UNKNOWN') await nurse.act('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
  else if (visit.lines.some((l) => !l.automatic)) await nurse.act('discharge.begin', { workflowId: visit.workflowId });
  else await pause(30);
  return 'going';
}

async function lookedUp(nurse: Nurse, nationalId: string, serviceType?: 'INPATIENT'): Promise<string | null> {
  const looked = await nurse.act('patient.lookUp', { idType: 'National ID', idNumber: nationalId, ...(serviceType === undefined ? {} : { serviceType }) });
  return looked.ok ? looked.value.patientRef : null;
}

async function driveB(nurse: Nurse, control: ControlApi, patient: Patient, bySms: boolean): Promise<boolean> {
  const presented = new Set<string>();
  let patientRef: string | null = null;
  for (let round = 0; round < 150; round += 1) {
    const views = await nurse.views();
    if (views.some((v) => v.kind === 'visit')) {
      if ((await visitToEnd(nurse, control, patient, views, presented, bySms, 'submit')) === 'done') return true;
      continue;
    }
    const consent = views.find((v) => v.kind === 'consent' && v.state !== 'cancelled');
    if (consent === undefined) {
      patientRef ??= await lookedUp(nurse, NATIONAL_ID[bySms ? 'B-sms' : 'B-fingerprint']);
      if (patientRef !== null) await nurse.act('consent.begin', { patientRef });
    } else if (consent.state === 'verifying') {
      await verify(nurse, control, patient, consent, 'consent', presented, bySms);
    } else if (offers(consent, 'visit.open')) {
      await nurse.act('visit.open', { workflowId: consent.workflowId, doctor: DOCTOR });
    } else {
      await pause(30);
    }
  }
  return false;
}

async function driveA(nurse: Nurse, control: ControlApi, patient: Patient, bySms: boolean): Promise<boolean> {
  const presented = new Set<string>();
  let patientRef: string | null = null;
  for (let round = 0; round < 200; round += 1) {
    const views = await nurse.views();
    if (views.some((v) => v.kind === 'visit')) {
      if ((await visitToEnd(nurse, control, patient, views, presented, bySms, 'discharge')) === 'done') return true;
      continue;
    }
    const elective = latest(views, 'elective');
    if (elective?.kind !== 'elective' || elective.state === 'cancelled') {
      patientRef ??= await lookedUp(nurse, NATIONAL_ID[bySms ? 'A-sms' : 'A'], 'INPATIENT');
      if (patientRef === null) continue;
      const electives = await nurse.act('benefits.interventions', { patientRef, scenario: 'elective-preauth', pageSize: 5 });
      const code = electives.ok ? electives.value.items[0]?.code : undefined;
      if (code !== undefined) await nurse.act('elective.begin', { patientRef, interventionCode: code });
      continue;
    }
    if (offers(elective, 'elective.submitPreauth')) await nurse.act('elective.submitPreauth', { workflowId: elective.workflowId, ...PREAUTH });
    else if (elective.state === 'verifying' || (elective.verification !== null && (elective.state === 'finalised' || elective.state === 'visit-day-verifying') && bySms))
      await verify(nurse, control, patient, elective, 'consent', presented, bySms);
    else if (elective.state === 'awaiting-doctor' && elective.preauth?.reference) await control.post(`/preauths/${elective.preauth.reference}/doctor-approval`).catch(() => undefined);
    else if (elective.state === 'awaiting-payer' && elective.preauth?.reference) await control.post(`/preauths/${elective.preauth.reference}/payer-approval`).catch(() => undefined);
    else if (offers(elective, 'visit.open')) await nurse.act('visit.open', { workflowId: elective.workflowId, doctor: SURGEON });
    else await pause(30);
    await pause(10);
  }
  return false;
}

async function driveC(nurse: Nurse, control: ControlApi, patient: Patient, sandbox: RunningSandbox): Promise<boolean> {
  let protocolCode: string | undefined;
  let patientRef: string | null = null;
  for (let round = 0; round < 150; round += 1) {
    const views = await nurse.views();
    const emergency = latest(views, 'emergency');
    if (emergency?.kind === 'emergency' && emergency.state === 'submitted') return true;
    if (emergency?.kind !== 'emergency') {
      if (protocolCode === undefined) {
        const protocols = await nurse.act('emergency.protocols', { interventionCode: 'SHA-01-001' });
        protocolCode = protocols.ok ? protocols.value.items[0]?.protocolCode : undefined;
        continue;
      }
      await nurse.act('emergency.create', { interventionCode: 'SHA-01-001', protocolCode, doctor: EMERGENCY_DOCTOR, modeOfArrival: 'AMBULANCE', broughtBy: 'PARAMEDICS', referenceNumber: REFERENCE, notes: 'Found unconscious' });
      continue;
    }
    const id = emergency.workflowId;
    if (emergency.state === 'unconfirmed') {
      // She checks with SHA by the reference number, as the screen asks, and sends it again only if SHA has none.
      if (claimsOfReference(sandbox).length === 0) await nurse.act('emergency.resendClaim', { workflowId: id });
      else return false;
    } else if (offers(emergency, 'emergency.addProtocol')) await nurse.act('emergency.addProtocol', { workflowId: id });
    else if (emergency.doctorApproval === 'not-requested' && offers(emergency, 'emergency.requestDoctorApproval')) await nurse.act('emergency.requestDoctorApproval', { workflowId: id });
    else if (emergency.state === 'open-unidentified') {
      patientRef ??= await lookedUp(nurse, NATIONAL_ID.C);
      if (patientRef !== null) await nurse.act('emergency.identify', { workflowId: id, patientRef });
    } else if (emergency.state === 'identifying') await verify(nurse, control, patient, emergency, 'consent', new Set(), true);
    else if (emergency.state === 'open-identified') await nurse.act('emergency.submit', { workflowId: id, reason: 'RECOVERED' });
    else await pause(30);
  }
  return false;
}

/** Drives a flow from whatever the station shows to its end; answers whether it got there. */
export function drive(flow: FlowName, nurse: Nurse, control: ControlApi, patient: Patient, sandbox: RunningSandbox): Promise<boolean> {
  return flow === 'A' || flow === 'A-sms' ? driveA(nurse, control, patient, flow === 'A-sms') : flow === 'C' ? driveC(nurse, control, patient, sandbox) : driveB(nurse, control, patient, flow === 'B-sms');
}

const claimsOfReference = (sandbox: RunningSandbox) => [...sandbox.context.state.claims.values()].filter((c) => c.emergency?.reference_number === REFERENCE);

/** What the exchange holds after the case: each record once, none missing. */
export function countAtExchange(flow: FlowName, sandbox: RunningSandbox, cr: string): Pick<CaseResult, 'lost' | 'duplicated' | 'strayConsents' | 'strayPending'> {
  const lost: string[] = [];
  const duplicated: string[] = [];
  const once = (what: string, n: number) => {
    if (n === 0) lost.push(what);
    if (n > 1) duplicated.push(`${what} ×${n}`);
  };
  const state = sandbox.context.state;
  const claims = flow === 'C' ? claimsOfReference(sandbox) : [...state.claims.values()].filter((c) => c.patient_id === cr);
  once('claim', claims.length);
  for (const claim of claims) {
    if (flow === 'C') once('protocol line', claim.lines.filter((l) => l.generated === 'protocol').length);
    else once('billing line', claim.lines.filter((l) => l.generated === null).length);
    // A full discharge submits the claim as a submit does: either way one move to SUBMITTED.
    once('submission', sandbox.context.transitions.filter((t) => t.entity_type === 'claim' && t.consent_token === claim.consent_token && t.to_state === 'SUBMITTED').length);
  }
  if (flow === 'A' || flow === 'A-sms') once('preauthorization', [...state.preauths.values()].filter((p) => p.patient_id === cr).length);
  const authorizations = [...state.authorizations.values()].filter((a) => a.patient_id === cr);
  const strayConsents = authorizations.filter((a) => (a.status === 'AUTHORIZED' || a.status === 'AUTHORIZED_PENDING_VISIT') && a.claim_consent_token === null && a.phase !== 'discharge' && a.phase !== 'pre_visit').length;
  const strayPending = authorizations.filter((a) => a.status === 'PENDING').length;
  return { lost, duplicated, strayConsents, strayPending };
}

export interface FaultyWorld {
  readonly sandbox: RunningSandbox;
  readonly proxy: FaultProxy;
  readonly control: ControlApi;
  /** A station signed in to the exchange through the proxy, on sandbox time, with short waits. */
  readonly s: StationHandle;
  close(): Promise<void>;
}

/** A fresh sandbox, the fault proxy in front of it, and a station on a fresh journal behind both. */
export async function faultyWorld(seed: string): Promise<FaultyWorld> {
  const sandbox = await startSandbox({ port: 0, seed });
  const proxy = await startFaultProxy(sandbox.url);
  const dir = mkdtempSync(join(tmpdir(), 'idhini-matrix-'));
  const close = async () => {
    await s?.station.stop();
    await proxy.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  };
  let s: StationHandle | undefined;
  try {
    s = await openStation({ databasePath: join(dir, 'station.db'), sandboxUrl: proxy.url, extra: { clock: { now: () => sandbox.context.clock.now() }, timing: TIMING } });
  } catch (error) {
    await close();
    throw error;
  }
  return { sandbox, proxy, control: new ControlApi(sandbox.url), s, close };
}

export interface Matrix {
  /**
   * The exchange calls of a clean run of the flow (the matrix's rows): every call that changes
   * state, each one (a second authorize is the visit end's), and the first of each kind of read.
   */
  calls(flow: FlowName): Promise<{ kind: string; occurrence: number }[]>;
  run(flow: FlowName, plan: FaultPlan | null): Promise<CaseResult>;
}

export function faultMatrix(): Matrix {
  const callsOf = new Map<FlowName, { kind: string; occurrence: number }[]>();
  const matrix: Matrix = {
    async calls(flow) {
      const known = callsOf.get(flow);
      if (known !== undefined) return known;
      const clean = await matrix.run(flow, null);
      if (!clean.completed || clean.lost.length + clean.duplicated.length > 0) throw new Error(`flow ${flow} does not pass without faults: ${JSON.stringify(clean)}`);
      const calls = clean.kinds.flatMap(({ kind, count }) => Array.from({ length: isRead(kind) ? 1 : count }, (_, i) => ({ kind, occurrence: i + 1 })));
      callsOf.set(flow, calls);
      return calls;
    },
    async run(flow, plan) {
      const world = await faultyWorld(`matrix-${flow}`);
      try {
        const { sandbox, proxy, control, s } = world;
        const cr = await control.crIdOf(NATIONAL_ID[flow]);
        const patient = { cr, template: await control.enrolledTemplate(cr) };
        proxy.arm(plan);
        const nurse = new Nurse((name, input) => s.station.bridge.invoke(name, input));
        const completed = await drive(flow, nurse, control, patient, sandbox);
        // Whatever the station does by itself after the flow (a late reconciliation) has its moment.
        await pause(TIMING.reconcileRetryMs * 2);
        const views = await nurse.views();
        // The token is fetched at sign-in, before any fault is armed: not a call of the flow.
        const kinds = proxy.kinds.filter((k) => !k.kind.endsWith('/tenants/token'));
        const waiting = views.find((v) => !TERMINAL.has(`${v.kind}:${v.state}`) && v.lastError !== null && v.next.length > 0);
        const actionable = completed || waiting === undefined ? null : { workflow: `${waiting.kind}:${waiting.state}`, code: waiting.lastError!.code, next: [...waiting.next] };
        const silent = views.filter((v) => v.next.length === 0 && !TERMINAL.has(`${v.kind}:${v.state}`)).map((v) => `${v.kind}:${v.state}`);
        return { flow, plan, completed, actionable, fired: plan === null || proxy.fired, lastError: nurse.lastError, seen: nurse.seen, silent, kinds, ...countAtExchange(flow, sandbox, cr) };
      } finally {
        await world.close();
      }
    },
  };
  return matrix;
}

/** States that are ends: nothing more to do, so no step offered is right. */
const TERMINAL = new Set([
  'consent:visit-opened',
  'consent:cancelled',
  'visit:closed',
  'visit:failed',
  'discharge:discharged',
  'discharge:submitted',
  'discharge:cancelled',
  'elective:visit-opened',
  'elective:preauth-rejected',
  'elective:cancelled',
  'emergency:submitted',
  'emergency:window-expired',
  'emergency:not-created',
]);

/**
 * Whether a case held: the flow completed with every record once, or it stopped at an actionable
 * message with nothing done twice (what was never done there is not lost: the nurse was told); and
 * no fingerprint request is left PENDING at SHA, where it would block the patient's SMS consent.
 */
export function held(r: CaseResult): boolean {
  if (!r.fired || r.duplicated.length > 0 || r.silent.length > 0 || r.strayConsents > 0 || r.strayPending > 0) return false;
  return r.completed ? r.lost.length === 0 : r.actionable !== null && !r.lost.includes('claim');
}

/** A one-line account of the cases that did not hold, for the assertion message. */
export function failures(results: readonly CaseResult[]): string[] {
  return results
    .filter((r) => !held(r))
    .map(
      (r) =>
        `${r.flow} ${r.plan?.fault ?? 'clean'} at ${r.plan?.kind ?? '-'} #${r.plan?.occurrence ?? 0}: ${r.fired ? '' : 'fault never met, '}${r.completed ? 'completed' : `stopped (${r.lastError?.code ?? 'no message'})`}` +
        `${r.lost.length > 0 ? `, lost ${r.lost.join(', ')}` : ''}${r.duplicated.length > 0 ? `, duplicated ${r.duplicated.join(', ')}` : ''}` +
        `${r.silent.length > 0 ? `, silent ${r.silent.join(', ')}` : ''}${r.strayConsents > 0 ? `, ${r.strayConsents} unused consent(s)` : ''}` +
        `${r.strayPending > 0 ? `, ${r.strayPending} fingerprint request(s) left PENDING` : ''}`,
    );
}

export async function runFaults(matrix: Matrix, flow: FlowName, fault: Fault): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const call of await matrix.calls(flow)) results.push(await matrix.run(flow, { ...call, fault }));
  return results;
}

/** A read of the exchange (the client's table says which calls may be repeated): GETs and the claim preview. */
function isRead(kind: string): boolean {
  const [method, path] = kind.split(' ') as [string, string];
  return operations.some((op) => op.safeToRepeat && op.method === method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
}

/** One line per flow and fault: cases, how they ended, and what the exchange holds too much or too little of. */
export function summary(results: readonly CaseResult[]): string {
  const completed = results.filter((r) => r.completed).length;
  const actionable = results.filter((r) => !r.completed && r.actionable !== null).length;
  const lost = results.filter((r) => r.completed && r.lost.length > 0).length;
  const duplicated = results.filter((r) => r.duplicated.length > 0).length;
  const pending = results.reduce((n, r) => n + r.strayPending, 0);
  return `${results.length} cases: ${completed} completed, ${actionable} stopped at an actionable message, ${lost} lost, ${duplicated} duplicated, ${pending} fingerprint request(s) left PENDING`;
}
