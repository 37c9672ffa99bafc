// Crash-resume: flow B is driven through a station running in a child process that SIGKILLs itself
// at one journal point — right after the intent of a state-changing call is journaled (before it
// is sent), right after the exchange answered (nothing journaled yet), or right after the outcome
// is journaled. The station is started again on the same SQLite file and driven on from whatever it
// shows. Every run must end with the claim submitted, and the sandbox must hold exactly one visit
// for the patient and exactly one submission of it.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, CommandOutcome, WorkflowView } from '../../../electron/contract';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox';
import { ControlApi, DOCTOR, presentAtPage, stepOf, tempDir } from './harness';

const childPath = join(fileURLToPath(new URL('.', import.meta.url)), 'crash-child.ts');

class Crashed extends Error {}

/** One station process; `invoke` rejects with Crashed when the process dies under the call. */
class StationProcess {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, { resolve: (o: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  readonly exited: Promise<NodeJS.Signals | null>;
  readonly ready: Promise<void>;

  constructor(env: Record<string, string>) {
    this.child = fork(childPath, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.exited = new Promise((resolve) => this.child.once('exit', (_code, signal) => resolve(signal)));
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (message: { ready?: true; id?: number; outcome?: unknown }) => {
        if (message.ready === true) resolve();
        else if (message.id !== undefined) {
          this.waiting.get(message.id)?.resolve(message.outcome);
          this.waiting.delete(message.id);
        }
      });
      void this.exited.then(() => {
        reject(new Crashed('exited before it was ready'));
        for (const w of this.waiting.values()) w.reject(new Crashed('the station process died'));
        this.waiting.clear();
      });
    });
  }

  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutcome<N>> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.reject(new Crashed('the station process is gone'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (o: unknown) => void, reject });
      this.child.send({ id, name, input });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}

interface Scenario {
  readonly route: 'fingerprint' | 'sms';
  readonly crashAt: string;
}

const NATIONAL_ID = { fingerprint: '30000001', sms: '30000002' } as const;

/**
 * Drives flow B from whatever the station shows, one step at a time, like a nurse coming back to
 * the station after it restarted. Returns when the discharge is submitted.
 */
async function driveFlowB(p: StationProcess, control: ControlApi, route: Scenario['route']): Promise<void> {
  const nationalId = NATIONAL_ID[route];
  const cr = await control.crIdOf(nationalId);
  const template = await control.enrolledTemplate(cr);
  const ok = async <N extends CommandName>(name: N, input: CommandInput<N>) => {
    const outcome = await p.invoke(name, input);
    return outcome;
  };
  const presented = new Set<string>();
  for (let round = 0; round < 200; round += 1) {
    const all = await ok('workflow.list', { includeEnded: true });
    if (!all.ok) throw new Error(JSON.stringify(all.error));
    const views = all.value.items;
    const latest = (kind: WorkflowView['kind']) => views.filter((v) => v.kind === kind).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
    const discharge = latest('discharge');
    const visit = latest('visit');
    const consent = views.find((v) => v.kind === 'consent' && v.state !== 'cancelled');
    if (discharge?.state === 'submitted') return;

    const verify = async (view: WorkflowView, purpose: 'consent' | 'discharge') => {
      const step = stepOf(view);
      if (step === null) return;
      if (route === 'fingerprint') {
        if (step.stage === 'awaiting-fingerprint' && step.fingerprint?.link) {
          if (!presented.has(step.fingerprint.link.handle)) {
            presented.add(step.fingerprint.link.handle);
            // A finger presented before the crash leaves the request decided: the page says so (409).
            await presentAtPage(step.fingerprint.link.url, template).catch(() => undefined);
          }
          return;
        }
        await ok('consent.startFingerprint', { workflowId: view.workflowId });
        return;
      }
      if (step.stage === 'sms-sent' && (view.lastError === null || view.lastError.code !== 'OTP_INVALID')) {
        const code = await control.latestCode({ patient_id: cr }, purpose);
        await ok('consent.confirmSms', { workflowId: view.workflowId, code });
        return;
      }
      const sent = await ok('consent.sendSms', { workflowId: view.workflowId });
      if (!sent.ok && sent.error.code === 'OTP_RESEND_TOO_SOON') await new Promise((r) => setTimeout(r, 120));
    };

    if (discharge !== undefined && discharge.state !== 'cancelled') {
      if (discharge.state === 'verifying') await verify(discharge, 'discharge');
      else if (discharge.state === 'ready') await ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
      else await new Promise((r) => setTimeout(r, 30));
    } else if (visit !== undefined && visit.kind === 'visit') {
      // A visit opened by the SMS code has no doctor yet: the nurse names one before the claim goes.
      if (visit.state === 'open' && visit.doctor === null) await ok('visit.attachDoctor', { workflowId: visit.workflowId, doctor: DOCTOR });
      else if (visit.state === 'open' && visit.lines.length === 0) await ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
      else if (visit.state === 'open') await ok('discharge.begin', { workflowId: visit.workflowId });
      else await new Promise((r) => setTimeout(r, 30));
    } else if (consent !== undefined) {
      if (consent.state === 'verifying') await verify(consent, 'consent');
      else if (consent.state === 'verified') await ok('visit.open', { workflowId: consent.workflowId, doctor: DOCTOR });
      else await new Promise((r) => setTimeout(r, 30));
    } else {
      const recent = await ok('patient.recent', {});
      const patientRef = recent.ok ? recent.value.items[0]?.patientRef : undefined;
      if (patientRef === undefined) {
        const looked = await ok('patient.lookUp', { idType: 'National ID', idNumber: nationalId });
        if (!looked.ok) throw new Error(JSON.stringify(looked.error));
      } else {
        await ok('consent.begin', { patientRef });
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('flow B did not finish in 200 steps');
}

async function runScenario(s: Scenario): Promise<{ crashed: boolean; sandbox: RunningSandbox; cr: string }> {
  const sandbox = await startSandbox({ port: 0, seed: `crash-${s.crashAt}` });
  const dir = tempDir();
  const control = new ControlApi(sandbox.url);
  const env = { IDHINI_DB: join(dir.path, 'station.db'), IDHINI_SECRETS: join(dir.path, 'secrets.json'), IDHINI_SANDBOX_URL: sandbox.url };
  let crashed = false;
  try {
    const first = new StationProcess({ ...env, IDHINI_CRASH_AT: s.crashAt });
    await first.ready;
    const signIn = await first.invoke('facility.signIn', { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' });
    expect(signIn.ok).toBe(true);
    try {
      await driveFlowB(first, control, s.route);
    } catch (error) {
      if (!(error instanceof Crashed)) throw error;
      crashed = true;
    }
    expect(await first.exited.then((signal) => signal ?? 'exited')).toBe(crashed ? 'SIGKILL' : 'SIGTERM');
    if (!crashed) return { crashed, sandbox, cr: await control.crIdOf(NATIONAL_ID[s.route]) };
    // The same SQLite file and keystore; the credentials come from the store, not from a new sign-in.
    const second = new StationProcess(env);
    await second.ready;
    try {
      await driveFlowB(second, control, s.route);
    } finally {
      await second.stop();
    }
    return { crashed, sandbox, cr: await control.crIdOf(NATIONAL_ID[s.route]) };
  } finally {
    dir.remove();
  }
}

const fingerprintSteps = ['consent.authorizeBiometric', 'claims.createVisit', 'claims.addBilling', 'consent.authorizeDischarge', 'claims.submit'];
// By SMS code there is no authorize: the confirmed code is spent by the visit itself.
const smsSteps = ['consent.sendOtp', 'claims.createVisit', 'claims.addBilling', 'consent.sendDischargeOtp', 'claims.submit'];
const scenarios: Scenario[] = [
  ...fingerprintSteps.flatMap((op) => (['before-send', 'after-answer', 'after-outcome'] as const).map((phase) => ({ route: 'fingerprint' as const, crashAt: `${op}:${phase}` }))),
  ...smsSteps.map((op) => ({ route: 'sms' as const, crashAt: `${op}:after-answer` })),
];

const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

describe('crash-resume of flow B', () => {
  it.concurrent.each(scenarios)('killed at $crashAt ($route): resumes to one visit and one submission', { timeout: 120_000 }, async (scenario) => {
    const { crashed, sandbox, cr } = await runScenario(scenario);
    sandboxes.push(sandbox);
    expect(crashed, 'the station was killed at the journal point').toBe(true);
    const claims = [...sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr);
    expect(claims, 'exactly one visit').toHaveLength(1);
    expect(claims[0]).toMatchObject({ workflow_state: 'SUBMITTED' });
    const submissions = sandbox.context.transitions.filter((t) => t.entity_type === 'claim' && t.to_state === 'SUBMITTED');
    expect(submissions, 'exactly one submission').toHaveLength(1);
    expect(claims[0]!.lines.length, 'the line, once').toBe(1);
  });
});
