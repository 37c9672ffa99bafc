// Public entry of the conformance sandbox: start it, get its URL, close it.
import type { FastifyInstance } from 'fastify';
import { DEFAULT_FRAME_ANCESTORS, SandboxContext, type SandboxConfig } from './context';
import { FAULT_PROFILES, type FaultProfileName } from './faults';
import { buildServer } from './server';

export interface SandboxOptions {
  /** Loopback by default; the control API answers loopback callers only whatever the host. */
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Added to every exchange call (not /sandbox/*). */
  readonly latencyMs?: number;
  /** Share of exchange calls answered 503, 0..1. */
  readonly failRate?: number;
  /**
   * A network profile instead of a fixed latency and rate: `ward` draws each call's latency from its
   * route's band, with slow tails and 5xx, seeded (by `seed`, else the profile's name) so runs repeat.
   */
  readonly profile?: FaultProfileName;
  /** First retry delay of a failed status callback; doubles per attempt (5 attempts, capped at 60 s). */
  readonly callbackRetryBaseMs?: number;
  /** The workstation's local device service the authorization page captures from. */
  readonly deviceServiceUrl?: string;
  /** Makes tokens, guids, OTPs and fault decisions reproducible. */
  readonly seed?: string | number;
  /** CSP frame-ancestors of the authorization page (default: 'self' and the loopback origins). */
  readonly frameAncestors?: readonly string[];
  /**
   * The time sandbox time runs on (default: the machine's). A test replaying calls recorded earlier
   * puts the sandbox back at the moment each was made, so expiries come out as they did.
   */
  readonly now?: () => number;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:18080 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly context: SandboxContext;
  readonly server: FastifyInstance;
  /** Back to the seeded demo world (as POST /sandbox/reset). */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_DEVICE_SERVICE_URL = 'http://127.0.0.1:18065';
const SWEEP_INTERVAL_MS = 1000;

export function resolveConfig(options: SandboxOptions): SandboxConfig {
  const config: SandboxConfig = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    latencyMs: options.latencyMs ?? 0,
    failRate: options.failRate ?? 0,
    profile: options.profile,
    callbackRetryBaseMs: options.callbackRetryBaseMs ?? 1000,
    deviceServiceUrl: (options.deviceServiceUrl ?? DEFAULT_DEVICE_SERVICE_URL).replace(/\/+$/, ''),
    seed: options.seed,
    frameAncestors: options.frameAncestors ?? DEFAULT_FRAME_ANCESTORS,
    now: options.now ?? Date.now,
  };
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) throw new RangeError(`port must be an integer 0..65535, got ${config.port}`);
  if (!Number.isFinite(config.latencyMs) || config.latencyMs < 0 || config.latencyMs > 120_000) {
    throw new RangeError(`latency must be 0..120000 ms, got ${config.latencyMs}`);
  }
  if (config.profile !== undefined && !(FAULT_PROFILES as readonly string[]).includes(config.profile)) throw new RangeError(`profile must be one of ${FAULT_PROFILES.join(', ')}, got ${config.profile}`);
  if (config.profile !== undefined && (config.latencyMs > 0 || config.failRate > 0)) throw new RangeError('a profile sets its own latencies and failures: give it without a latency or a fail rate');
  if (!Number.isFinite(config.failRate) || config.failRate < 0 || config.failRate > 1) throw new RangeError(`fail rate must be between 0 and 1, got ${config.failRate}`);
  if (!Number.isFinite(config.callbackRetryBaseMs) || config.callbackRetryBaseMs < 1 || config.callbackRetryBaseMs > 600_000) {
    throw new RangeError(`callback retry base must be 1..600000 ms, got ${config.callbackRetryBaseMs}`);
  }
  let deviceUrl: URL;
  try {
    deviceUrl = new URL(config.deviceServiceUrl);
  } catch {
    throw new RangeError(`device service URL is not a URL: ${config.deviceServiceUrl}`);
  }
  if (deviceUrl.protocol !== 'http:' && deviceUrl.protocol !== 'https:') throw new RangeError('device service URL must be http(s)');
  return config;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const config = resolveConfig(options);
  const context = new SandboxContext(config);
  const server = await buildServer(context);
  await server.listen({ host: config.host, port: config.port });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  context.baseUrl = url;
  const sweeper = setInterval(() => context.sweep(), SWEEP_INTERVAL_MS);
  sweeper.unref();
  let closed = false;
  return {
    url,
    port,
    context,
    server,
    reset: () => context.reset(),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      context.callbacks.stop();
      await server.close();
    },
  };
}

export { SandboxContext } from './context';
export { FAULT_PROFILES, type FaultProfileName } from './faults';
export { signature as callbackSignature } from './callbacks';
export { enrolledTemplate, TEMPLATE_BYTES } from './world/fingerprints';
export { FINGERS, PATIENTS, type Finger } from './world/patients';
export { API_CLIENTS, FACILITIES } from './world/facilities';
export { TERMINOLOGY } from './world/concepts';
