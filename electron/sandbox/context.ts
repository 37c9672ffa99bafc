// The running sandbox's core: configuration, clock, randomness, state, callbacks and faults,
// shared by every route. `reset` brings the demo world back; issued access tokens survive it so a
// station in training mode keeps working across a reset.
import { CallbackDispatcher } from './callbacks';
import { SandboxClock } from './clock';
import { FaultInjector, type FaultProfileName } from './faults';
import { createRng, type Rng } from './rng';
import { SandboxState, type StateChange } from './state/store';

export interface SandboxConfig {
  readonly host: string;
  readonly port: number;
  readonly latencyMs: number;
  readonly failRate: number;
  /** A network profile in place of the fixed latency and rate. */
  readonly profile: FaultProfileName | undefined;
  readonly callbackRetryBaseMs: number;
  readonly deviceServiceUrl: string;
  readonly seed: string | number | undefined;
  /** CSP frame-ancestors of the authorization page: the station's loopback origins. */
  readonly frameAncestors: readonly string[];
  /** The time sandbox time runs on (the machine's, unless a test puts the sandbox at another moment). */
  readonly now: () => number;
}

export const DEFAULT_FRAME_ANCESTORS: readonly string[] = ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'];

export class SandboxContext {
  readonly clock: SandboxClock;
  readonly rng: Rng;
  readonly callbacks: CallbackDispatcher;
  readonly faults: FaultInjector;
  state: SandboxState;
  /** Every state change since the last reset, delivered or not (GET /sandbox/transitions). */
  transitions: StateChange[] = [];
  /** The sandbox's own origin, e.g. http://127.0.0.1:18080; known once it listens. */
  baseUrl = '';

  constructor(readonly config: SandboxConfig) {
    this.clock = new SandboxClock(config.now);
    this.rng = createRng(config.seed);
    this.callbacks = new CallbackDispatcher({
      endpoints: () => this.state.endpoints.values(),
      rng: () => this.rng,
      retryBaseMs: config.callbackRetryBaseMs,
    });
    this.faults = new FaultInjector(() => this.rng, {
      latencyMs: config.latencyMs,
      failRate: config.failRate,
      profile: config.profile,
      seed: config.seed === undefined ? undefined : String(config.seed),
    });
    this.state = this.freshState();
  }

  now(): number {
    return this.clock.now();
  }

  reset(): void {
    const tokens = this.state.tokens;
    this.callbacks.reset();
    this.faults.reset();
    this.clock.reset();
    this.transitions = [];
    this.state = this.freshState();
    for (const [token, issued] of tokens) this.state.tokens.set(token, issued);
  }

  /** Expires what sandbox time has expired; the periodic sweep and the clock call this. */
  sweep(): number {
    return this.state.sweep();
  }

  private freshState(): SandboxState {
    return new SandboxState(
      () => this.clock.now(),
      (change) => {
        this.transitions.push(change);
        this.callbacks.announce(change);
      },
    );
  }
}
