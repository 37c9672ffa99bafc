// Crash-resume: flows A, B (fingerprint and SMS code) and C are driven through a station running in
// a child process that SIGKILLs itself at one journal point — right after the intent of a
// state-changing call is journaled (before it is sent), right after the exchange answered (nothing
// journaled yet), or right after the outcome is journaled. The exchange (an in-process sandbox)
// survives the kill. The station is started again on the same SQLite file and key store — browser
// mode's file key store, or the Electron shell's safeStorage store over a fake — and driven on from
// whatever it shows, as a nurse coming back to it would. Every workflow must resume: each flow ends
// done (or, where the exchange offers no look-up, at the message that says what to do), and the
// exchange holds each record once.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, CommandOutcome } from '../../../electron/contract';
import { startSandbox } from '../../../electron/sandbox';
import { countAtExchange, drive, NATIONAL_ID, Nurse, type FlowName } from './fault-matrix';
import { ControlApi, tempDir } from './harness';

const here = fileURLToPath(new URL('.', import.meta.url));
/**
 * The child bundled once per run (its packages left to node_modules): some ninety station processes
 * start here, and each compiling the station's TypeScript again under tsx was most of this file's time.
 */
const childBundle = join(here, '../../../dist/test/crash-child.mjs');

beforeAll(async () => {
  await build({ entryPoints: [join(here, 'crash-child.ts')], bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', outfile: childBundle, logLevel: 'silent' });
}, 60_000);

class Crashed extends Error {}

/** One station process; `invoke` rejects with Crashed when the process dies under the call. */
class StationProcess {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, { resolve: (o: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  readonly exited: Promise<NodeJS.Signals | null>;
  readonly ready: Promise<void>;

  constructor(env: Record<string, string>) {
    this.child = fork(childBundle, [], { execArgv: [], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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
    // Killed but not yet reaped: the channel is closed before the exit is seen.
    if (this.child.exitCode !== null || this.child.signalCode !== null || !this.child.connected) return Promise.reject(new Crashed('the station process is gone'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (o: unknown) => void, reject });
      // A send the dying process can no longer take is a crash under the call, not an uncaught error.
      this.child.send({ id, name, input }, (error) => {
        if (error === null || !this.waiting.has(id)) return;
        this.waiting.delete(id);
        reject(new Crashed(`the station process is gone (${error.message})`));
      });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}

type KeyStore = 'browser' | 'electron';

interface Scenario {
  readonly flow: FlowName;
  readonly crashAt: string;
  readonly keystore: KeyStore;
}

async function runScenario(s: Scenario): Promise<{ crashed: boolean; result: ReturnType<typeof countAtExchange>; completed: boolean; actionable: boolean }> {
  const sandbox = await startSandbox({ port: 0, seed: `crash-${s.flow}-${s.crashAt}` });
  const dir = tempDir();
  const control = new ControlApi(sandbox.url);
  const env = { IDHINI_DB: join(dir.path, 'station.db'), IDHINI_SECRETS: join(dir.path, 'secrets.json'), IDHINI_SANDBOX_URL: sandbox.url, IDHINI_KEYSTORE: s.keystore };
  const cr = await control.crIdOf(NATIONAL_ID[s.flow]);
  const patient = { cr, template: await control.enrolledTemplate(cr) };
  let crashed = false;
  try {
    const first = new StationProcess({ ...env, IDHINI_CRASH_AT: s.crashAt });
    await first.ready;
    const signIn = await first.invoke('facility.signIn', { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' });
    expect(signIn.ok).toBe(true);
    let completed = false;
    try {
      completed = await drive(s.flow, new Nurse((name, input) => first.invoke(name, input)), control, patient, sandbox);
    } catch (error) {
      if (!(error instanceof Crashed)) throw error;
      crashed = true;
    }
    expect(await first.exited.then((signal) => signal ?? 'exited')).toBe(crashed ? 'SIGKILL' : 'SIGTERM');
    let actionable = false;
    if (crashed) {
      // The same SQLite file and key store; the credentials come from the store, not from a new sign-in.
      const second = new StationProcess(env);
      await second.ready;
      try {
        const nurse = new Nurse((name, input) => second.invoke(name, input));
        completed = await drive(s.flow, nurse, control, patient, sandbox);
        const views = await nurse.views();
        actionable = views.some((v) => v.lastError !== null && v.next.length > 0 && (v.state === 'unconfirmed' || v.state === 'verifying'));
      } finally {
        await second.stop();
      }
    }
    return { crashed, completed, actionable, result: countAtExchange(s.flow, sandbox, cr) };
  } finally {
    dir.remove();
    await sandbox.close();
  }
}

const phases = ['before-send', 'after-answer', 'after-outcome'] as const;
const at = (flow: FlowName, ops: readonly string[], which: readonly (typeof phases)[number][], keystore: KeyStore): Scenario[] =>
  ops.flatMap((op) => which.map((phase) => ({ flow, crashAt: `${op}:${phase}`, keystore })));

const fingerprintSteps = ['consent.authorizeBiometric', 'claims.createVisit', 'claims.addBilling', 'consent.authorizeDischarge', 'claims.submit'];
// By SMS code there is no authorize: the confirmed code is spent by the visit itself.
const smsSteps = ['consent.sendOtp', 'claims.createVisit', 'claims.addBilling', 'consent.sendDischargeOtp', 'claims.submit'];
const electiveSteps = ['consent.authorizeBiometric', 'preauth.create', 'claims.createVisit', 'claims.addBilling', 'consent.authorizeDischarge', 'claims.discharge'];
const emergencySteps = ['emergency.createClaim', 'emergency.addProtocol', 'emergency.requestDoctorApproval', 'consent.sendOtp', 'emergency.identifyClaim', 'claims.submitEmergency'];

const scenarios: Scenario[] = [
  ...at('B-fingerprint', fingerprintSteps, phases, 'browser'),
  ...at('B-sms', smsSteps, ['after-answer'], 'browser'),
  ...at('A', electiveSteps, ['after-answer'], 'browser'),
  ...at('C', emergencySteps, ['before-send', 'after-answer'], 'browser'),
  // The Electron shell's key store: the same resumption, the journal key and secret through safeStorage.
  ...at('B-fingerprint', fingerprintSteps, ['after-answer'], 'electron'),
  ...at('C', emergencySteps, ['after-answer'], 'electron'),
];

const tally = { completed: 0, actionable: 0, duplicated: 0, pending: 0 };
afterAll(() => {
  // The account the lead reads in the run's output.
  console.info(`crash-resume: ${scenarios.length} journal points; ${tally.completed} resumed to the end, ${tally.actionable} to an actionable message; ${tally.duplicated} duplicated; ${tally.pending} fingerprint request(s) left PENDING`);
});

describe('crash-resume', () => {
  it.concurrent.each(scenarios)('$flow killed at $crashAt ($keystore key store): resumes; each record once', { timeout: 120_000 }, async (scenario) => {
    const { crashed, completed, actionable, result } = await runScenario(scenario);
    tally.completed += completed ? 1 : 0;
    tally.actionable += !completed && actionable ? 1 : 0;
    tally.duplicated += result.duplicated.length > 0 ? 1 : 0;
    tally.pending += result.strayPending;
    expect(crashed, 'the station was killed at the journal point').toBe(true);
    expect(result.duplicated, 'nothing at the exchange twice').toEqual([]);
    expect(result.strayConsents, 'no usable consent left unused').toBe(0);
    // Done, with every record once; or stopped where no look-up exists, saying what to do.
    if (completed) expect(result.lost).toEqual([]);
    else expect(actionable, 'stopped at an actionable message').toBe(true);
  });
});
