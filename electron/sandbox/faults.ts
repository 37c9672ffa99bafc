// Fault injection for the exchange routes (never /sandbox/* or the authorization page): added
// latency, failures at a rate or a fixed count, a chosen status, or a dropped connection, globally
// or for named routes ("POST /api/v1/claims/submit").
import { z } from 'zod';
import type { Rng } from './rng';

export interface RouteSelector {
  readonly method: string;
  readonly path: string;
}

export interface FaultRule {
  readonly id: string;
  readonly routes: readonly RouteSelector[] | null;
  readonly latency_ms: number;
  readonly fail_rate: number;
  readonly status: number;
  /** Failures still to inject before the rule stops failing; null = no limit. */
  remaining: number | null;
  readonly reset_connection: boolean;
  injected: number;
}

export interface FaultDecision {
  readonly latencyMs: number;
  readonly failure: { readonly status: number; readonly code: string; readonly resetConnection: boolean } | null;
}

const routeSelector = z
  .string()
  .trim()
  .regex(/^(\*|GET|POST|PUT|PATCH|DELETE)\s+\/\S*$/i, 'routes are written "METHOD /path", e.g. "POST /api/v1/claims/submit"')
  .transform((s): RouteSelector => {
    const [method = '*', path = '/'] = s.split(/\s+/);
    return { method: method.toUpperCase(), path: normalisePath(path) };
  });

export const faultRequest = z
  .object({
    latency_ms: z.number().int().min(0).max(120_000).default(0),
    fail_rate: z.number().min(0).max(1).optional(),
    status: z.number().int().min(400).max(599).default(503),
    routes: z.array(routeSelector).min(1).optional(),
    count: z.number().int().min(1).max(10_000).optional(),
    reset_connection: z.boolean().default(false),
  })
  .strict();
export type FaultRequest = z.output<typeof faultRequest>;

const STATUS_CODES: Record<number, string> = {
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

export function faultCode(status: number): string {
  return STATUS_CODES[status] ?? 'INJECTED_FAULT';
}

/** "/claims/authorizations/{token}/reject" and ":token" forms compare equal. */
function normalisePath(path: string): string {
  const bare = path.split('?')[0] ?? path;
  return bare.replace(/\{([^}]+)\}/g, ':$1').replace(/\/+$/, '') || '/';
}

export class FaultInjector {
  private global: FaultRule;
  private routeRules: FaultRule[] = [];
  private serial = 0;

  constructor(
    private readonly rng: () => Rng,
    private readonly startup: { latencyMs: number; failRate: number },
  ) {
    this.global = this.plainRule(startup.latencyMs, startup.failRate);
  }

  /** A request without routes replaces every rule; with routes it adds a rule for them. */
  apply(request: FaultRequest): FaultRule {
    const rule = this.rule(request, request.routes ?? null);
    if (rule.routes === null) {
      this.global = rule;
      this.routeRules = [];
    } else {
      this.routeRules.unshift(rule);
    }
    return rule;
  }

  clear(): void {
    this.global = this.plainRule(0, 0);
    this.routeRules = [];
  }

  /** Back to the faults the sandbox was started with. */
  reset(): void {
    this.global = this.plainRule(this.startup.latencyMs, this.startup.failRate);
    this.routeRules = [];
  }

  list(): { global: FaultRule; routes: readonly FaultRule[] } {
    return { global: this.global, routes: this.routeRules };
  }

  decide(method: string, path: string, routePattern: string | undefined): FaultDecision {
    const m = method.toUpperCase();
    const concrete = normalisePath(path);
    const pattern = routePattern === undefined ? undefined : normalisePath(routePattern);
    const rule =
      this.routeRules.find((r) =>
        (r.routes ?? []).some((s) => (s.method === '*' || s.method === m) && (s.path === concrete || s.path === pattern)),
      ) ?? this.global;
    let failure: FaultDecision['failure'] = null;
    if (rule.fail_rate > 0 && (rule.remaining === null || rule.remaining > 0) && this.rng().float() < rule.fail_rate) {
      failure = { status: rule.status, code: faultCode(rule.status), resetConnection: rule.reset_connection };
      rule.injected += 1;
      if (rule.remaining !== null) {
        rule.remaining -= 1;
        if (rule.remaining === 0 && rule.routes !== null && rule.latency_ms === 0) {
          this.routeRules = this.routeRules.filter((r) => r !== rule);
        }
      }
    }
    return { latencyMs: rule.latency_ms, failure };
  }

  /** A global rule of latency and 503s at a rate, as --latency-ms and --fail-rate give. */
  private plainRule(latencyMs: number, failRate: number): FaultRule {
    return this.rule({ latency_ms: latencyMs, fail_rate: failRate, status: 503, reset_connection: false }, null);
  }

  private rule(
    input: { latency_ms: number; fail_rate?: number | undefined; status: number; count?: number | undefined; reset_connection: boolean },
    routes: readonly RouteSelector[] | null,
  ): FaultRule {
    this.serial += 1;
    // A count without a rate means "fail the next `count` matching requests".
    const failRate = input.fail_rate ?? (input.count !== undefined ? 1 : 0);
    return {
      id: `fault-${this.serial}`,
      routes,
      latency_ms: input.latency_ms,
      fail_rate: failRate,
      status: input.status,
      remaining: input.count ?? null,
      reset_connection: input.reset_connection,
      injected: 0,
    };
  }
}
