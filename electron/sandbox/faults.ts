// Fault injection for the exchange routes (never /sandbox/* or the authorization page): added
// latency, failures at a rate or a fixed count, a chosen status, a dropped connection, or (ours) an
// answer lost after the work was done, globally
// or for named routes ("POST /api/v1/claims/submit", "GET /api/v1/patients/benefits/interventions?sub_benefit_code=SB-02-01");
// or a network profile ("ward") that draws each call's latency from its route's band, with
// occasional slow tails and 5xx, from a seeded stream so that runs repeat.
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { Rng } from './rng';

export interface RouteSelector {
  readonly method: string;
  readonly path: string;
  /** Query parameters the request must carry with these values; null: any query. */
  readonly query: Readonly<Record<string, string>> | null;
}

export const FAULT_PROFILES = ['ward'] as const;
export type FaultProfileName = (typeof FAULT_PROFILES)[number];

export interface FaultRule {
  readonly id: string;
  readonly routes: readonly RouteSelector[] | null;
  readonly latency_ms: number;
  readonly fail_rate: number;
  readonly status: number;
  /** Failures still to inject before the rule stops failing; null = no limit. */
  remaining: number | null;
  readonly reset_connection: boolean;
  /** Ours: the call is served, then its connection drops before the answer (the station cannot tell whether it happened). */
  readonly lose_answer: boolean;
  injected: number;
  /** A network profile in place of a fixed latency and rate (global rules only). */
  readonly profile: FaultProfileName | null;
  readonly seed: string | null;
}

export interface FaultDecision {
  readonly latencyMs: number;
  readonly failure: { readonly status: number; readonly code: string; readonly resetConnection: boolean; readonly loseAnswer: boolean } | null;
}

/** What the faults did to one exchange call, newest last (GET /sandbox/faults `recent`). */
export interface FaultRecord {
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly latency_ms: number;
  readonly failed_with: number | null;
  readonly rule: string;
}

const RECENT = 200;

const routeSelector = z
  .string()
  .trim()
  .regex(/^(\*|GET|POST|PUT|PATCH|DELETE)\s+\/\S*$/i, 'routes are written "METHOD /path", e.g. "POST /api/v1/claims/submit"')
  .transform((s): RouteSelector => {
    const [method = '*', target = '/'] = s.split(/\s+/);
    const [path = '/', search] = target.split('?', 2);
    const query = search === undefined || search === '' ? null : Object.fromEntries(new URLSearchParams(search));
    return { method: method.toUpperCase(), path: normalisePath(path), query };
  });

export const faultRequest = z
  .object({
    latency_ms: z.number().int().min(0).max(120_000).optional(),
    fail_rate: z.number().min(0).max(1).optional(),
    status: z.number().int().min(400).max(599).default(503),
    routes: z.array(routeSelector).min(1).optional(),
    count: z.number().int().min(1).max(10_000).optional(),
    reset_connection: z.boolean().default(false),
    lose_answer: z.boolean().default(false),
    profile: z.enum(FAULT_PROFILES).optional(),
    seed: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .superRefine((r, issues) => {
    if (r.lose_answer && r.reset_connection) issues.addIssue({ code: 'custom', path: ['lose_answer'], message: 'an answer is lost after the work, a reset connection before it: choose one' });
    if (r.profile === undefined) {
      if (r.seed !== undefined) issues.addIssue({ code: 'custom', path: ['seed'], message: 'a seed goes with a profile' });
      return;
    }
    for (const field of ['routes', 'latency_ms', 'fail_rate', 'count'] as const) {
      if (r[field] !== undefined) issues.addIssue({ code: 'custom', path: [field], message: 'a profile sets every route’s latency and failures itself: send it alone (with a seed if you like)' });
    }
  });
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

// ---------------------------------------------------------------- network profiles

type Band = readonly [minMs: number, maxMs: number];

interface Profile {
  /** Per route ("METHOD /path" as the sandbox routes it), the band a call's latency is drawn from. */
  readonly routes: Readonly<Record<string, Band>>;
  /** Routes not listed: reads and writes. */
  readonly reads: Band;
  readonly writes: Band;
  /** A share of calls waits this much longer on top. */
  readonly slowTail: { readonly share: number; readonly extra: Band };
  /** A share of calls fails with this status, except on the routes spared. */
  readonly failures: { readonly share: number; readonly status: number; readonly spared: readonly string[] };
}

/**
 * A Kenyan ward on the live exchange, as the peers report it: eligibility and the registry in
 * about a second, each sub-benefit's interventions in 1–4 s (R `docs/api/WORKFLOWS.md`: "DHA serves
 * each sub-benefit's list in ~1–4 s"), writes in 0.5–2 s; one call in thirty is a slow tail of
 * 3–8 s more, one in fifty a 503. The token call is never failed: training would lose its sign-in.
 */
const PROFILES: Record<FaultProfileName, Profile> = {
  ward: {
    routes: {
      'GET /api/v1/patients': [500, 1500],
      'GET /api/v1/patients/eligibility': [500, 1500],
      'GET /api/v1/patients/sub-benefits': [500, 1500],
      'GET /api/v1/patients/contacts': [300, 1000],
      'GET /api/v1/patients/benefits/interventions': [1000, 4000],
      'GET /api/v1/patients/benefits/utilization': [500, 2000],
      'GET /api/v1/claims/authorizations': [300, 1000],
      'POST /api/v1/tenants/token': [300, 1000],
    },
    reads: [300, 1200],
    writes: [500, 2000],
    slowTail: { share: 1 / 30, extra: [3000, 8000] },
    failures: { share: 1 / 50, status: 503, spared: ['POST /api/v1/tenants/token'] },
  },
};

/** Four uniform draws in [0, 1) for one call: from the seed, the call and how many like it came before. */
function draws(seed: string, key: string): [number, number, number, number] {
  const digest = createHmac('sha256', seed).update(key).digest();
  const at = (i: number) => digest.readUIntBE(i * 6, 6) / 2 ** 48;
  return [at(0), at(1), at(2), at(3)];
}

const within = ([min, max]: Band, u: number) => Math.round(min + (max - min) * u);

// ---------------------------------------------------------------- the injector

export class FaultInjector {
  private global: FaultRule;
  private routeRules: FaultRule[] = [];
  private serial = 0;
  /** Per call key, how many such calls the profile has decided (the draws follow it). */
  private readonly seen = new Map<string, number>();
  private readonly log: FaultRecord[] = [];

  constructor(
    private readonly rng: () => Rng,
    private readonly startup: { latencyMs: number; failRate: number; profile?: FaultProfileName | undefined; seed?: string | undefined },
  ) {
    this.global = this.startupRule();
  }

  /** A request without routes replaces every rule (a profile too); with routes it adds a rule for them. */
  apply(request: FaultRequest): FaultRule {
    const rule =
      request.profile === undefined ? this.rule(request, request.routes ?? null) : this.profileRule(request.profile, request.seed ?? this.startup.seed);
    if (rule.routes === null) {
      this.global = rule;
      this.routeRules = [];
      this.seen.clear();
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
    this.global = this.startupRule();
    this.routeRules = [];
    this.seen.clear();
    this.log.length = 0;
  }

  list(): { global: FaultRule; routes: readonly FaultRule[]; recent: readonly FaultRecord[] } {
    return { global: this.global, routes: this.routeRules, recent: this.log };
  }

  decide(method: string, url: string, routePattern: string | undefined): FaultDecision {
    const m = method.toUpperCase();
    const concrete = normalisePath(url);
    const pattern = routePattern === undefined ? undefined : normalisePath(routePattern);
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    const rule =
      this.routeRules.find((r) => (r.routes ?? []).some((s) => matches(s, m, concrete, pattern, query))) ?? this.global;
    const decision = rule.profile === null ? this.fixed(rule) : this.drawn(rule, m, pattern ?? concrete, url);
    this.log.push({
      at: new Date().toISOString(),
      method: m,
      path: concrete,
      latency_ms: decision.latencyMs,
      failed_with: decision.failure === null ? null : decision.failure.status,
      rule: rule.id,
    });
    if (this.log.length > RECENT) this.log.splice(0, this.log.length - RECENT);
    return decision;
  }

  private fixed(rule: FaultRule): FaultDecision {
    let failure: FaultDecision['failure'] = null;
    if (rule.fail_rate > 0 && (rule.remaining === null || rule.remaining > 0) && this.rng().float() < rule.fail_rate) {
      failure = { status: rule.status, code: faultCode(rule.status), resetConnection: rule.reset_connection, loseAnswer: rule.lose_answer };
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

  /**
   * The profile's decision for one call. A call is known by its route and its query (the patient,
   * the sub-benefit), and the n-th such call always draws the same: calls made in another order,
   * as concurrent ones may be, still get the same waits.
   */
  private drawn(rule: FaultRule, method: string, route: string, url: string): FaultDecision {
    const profile = PROFILES[rule.profile as FaultProfileName];
    const name = `${method} ${route}`;
    const search = new URLSearchParams(url.split('?')[1] ?? '');
    search.sort();
    const key = `${name}?${search.toString()}`;
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    const [base, tail, extra, fail] = draws(rule.seed ?? rule.profile!, `${key}#${n}`);
    const band = profile.routes[name] ?? (method === 'GET' ? profile.reads : profile.writes);
    const latencyMs = within(band, base) + (tail < profile.slowTail.share ? within(profile.slowTail.extra, extra) : 0);
    const fails = fail < profile.failures.share && !profile.failures.spared.includes(name);
    if (fails) rule.injected += 1;
    return { latencyMs, failure: fails ? { status: profile.failures.status, code: faultCode(profile.failures.status), resetConnection: false, loseAnswer: false } : null };
  }

  private startupRule(): FaultRule {
    return this.startup.profile === undefined ? this.plainRule(this.startup.latencyMs, this.startup.failRate) : this.profileRule(this.startup.profile, this.startup.seed);
  }

  /** A global rule of latency and 503s at a rate, as --latency-ms and --fail-rate give. */
  private plainRule(latencyMs: number, failRate: number): FaultRule {
    return this.rule({ latency_ms: latencyMs, fail_rate: failRate, status: 503, reset_connection: false, lose_answer: false }, null);
  }

  private profileRule(profile: FaultProfileName, seed: string | undefined): FaultRule {
    this.serial += 1;
    return { id: `fault-${this.serial}`, routes: null, latency_ms: 0, fail_rate: 0, status: PROFILES[profile].failures.status, remaining: null, reset_connection: false, lose_answer: false, injected: 0, profile, seed: seed ?? null };
  }

  private rule(
    input: { latency_ms?: number | undefined; fail_rate?: number | undefined; status: number; count?: number | undefined; reset_connection: boolean; lose_answer: boolean },
    routes: readonly RouteSelector[] | null,
  ): FaultRule {
    this.serial += 1;
    // A count without a rate means "fail the next `count` matching requests".
    const failRate = input.fail_rate ?? (input.count !== undefined ? 1 : 0);
    return {
      id: `fault-${this.serial}`,
      routes,
      latency_ms: input.latency_ms ?? 0,
      fail_rate: failRate,
      status: input.status,
      remaining: input.count ?? null,
      reset_connection: input.reset_connection,
      lose_answer: input.lose_answer,
      injected: 0,
      profile: null,
      seed: null,
    };
  }
}

function matches(s: RouteSelector, method: string, concrete: string, pattern: string | undefined, query: URLSearchParams): boolean {
  if (s.method !== '*' && s.method !== method) return false;
  if (s.path !== concrete && s.path !== pattern) return false;
  return s.query === null || Object.entries(s.query).every(([name, value]) => query.get(name) === value);
}
