// Status callbacks: every state change of a claim, preauth or authorization is POSTed to each
// active endpoint of that entity type at the owning facility, once per operation registered on it
// (to base_url + path, or the operation's path_url_override, with the headers registered on both).
// Bodies are signed with the endpoint's secret (HMAC-SHA256 over `${timestamp}.${body}`, ours) and
// failed deliveries are retried with capped exponential backoff; every attempt is kept for
// GET /sandbox/events.
import { createHmac } from 'node:crypto';
import { iso } from './clock';
import type { Rng } from './rng';
import type { EndpointRecord, OperationRecord, StateChange } from './state/store';

export const MAX_ATTEMPTS = 5;
export const ATTEMPT_TIMEOUT_MS = 5000;

export interface DeliveryAttempt {
  readonly attempt: number;
  readonly at: string;
  readonly status: number | null;
  readonly error: string | null;
  readonly duration_ms: number;
}

export interface Delivery {
  readonly id: string;
  readonly event_id: string;
  readonly endpoint_id: string;
  readonly operation: string;
  readonly url: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly attempts: DeliveryAttempt[];
  outcome: 'pending' | 'delivered' | 'failed';
  next_attempt_at: string | null;
  readonly created_at: string;
}

export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface DispatcherOptions {
  readonly endpoints: () => Iterable<EndpointRecord>;
  readonly rng: () => Rng;
  readonly retryBaseMs: number;
  readonly maxDelayMs?: number;
}

export class CallbackDispatcher {
  private deliveries: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private generation = 0;

  constructor(private readonly options: DispatcherOptions) {}

  announce(change: StateChange): void {
    const payload = {
      subject_guid: change.subject_guid,
      from_state: change.from_state,
      to_state: change.to_state,
      facility_fr_code: change.facility_fr_code,
      entity_type: change.entity_type,
      timestamp: iso(change.at),
      consent_token: change.consent_token,
      ...(change.notes === undefined ? {} : { notes: change.notes }),
    };
    const eventId = this.options.rng().uuid();
    for (const endpoint of this.options.endpoints()) {
      if (!endpoint.is_active || endpoint.facility !== change.facility_fr_code || endpoint.entity_type !== change.entity_type) continue;
      for (const operation of endpoint.operations) {
        const delivery: Delivery = {
          id: `${eventId}:${operation.id}`,
          event_id: eventId,
          endpoint_id: endpoint.id,
          operation: operation.name,
          url: operation.path_url_override ?? joinUrl(endpoint.base_url, operation.path ?? ''),
          payload,
          attempts: [],
          outcome: 'pending',
          next_attempt_at: iso(Date.now()),
          created_at: iso(Date.now()),
        };
        this.deliveries.push(delivery);
        void this.attempt(delivery, endpoint, operation, this.generation);
      }
    }
  }

  list(): readonly Delivery[] {
    return this.deliveries;
  }

  /** Forgets every delivery and stops pending retries (sandbox reset). */
  reset(): void {
    this.stop();
    this.deliveries = [];
  }

  stop(): void {
    this.generation += 1;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of this.inFlight) c.abort();
    this.inFlight.clear();
  }

  private async attempt(delivery: Delivery, endpoint: EndpointRecord, operation: OperationRecord, generation: number): Promise<void> {
    if (generation !== this.generation) return;
    const body = JSON.stringify(delivery.payload);
    // Real time, not sandbox time: receivers check freshness against their own clock.
    const timestamp = String(Date.now());
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), Math.min(operation.timeout_ms ?? endpoint.timeout_ms ?? ATTEMPT_TIMEOUT_MS, ATTEMPT_TIMEOUT_MS));
    timeout.unref();
    this.inFlight.add(controller);
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.url, {
        method: operation.method,
        redirect: 'manual',
        signal: controller.signal,
        headers: {
          ...endpoint.headers,
          ...operation.headers,
          'content-type': operation.request_content_type,
          'user-agent': 'idhini-sandbox-callbacks/1',
          'x-exchange-timestamp': timestamp,
          'x-exchange-signature': signature(endpoint.signing_secret, timestamp, body),
          'x-exchange-event-id': delivery.event_id,
          'x-exchange-delivery-attempt': String(delivery.attempts.length + 1),
        },
        body,
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
    if (generation !== this.generation) return;
    delivery.attempts.push({
      attempt: delivery.attempts.length + 1,
      at: iso(started),
      status,
      error,
      duration_ms: Date.now() - started,
    });
    if (status !== null && status >= 200 && status < 300) {
      delivery.outcome = 'delivered';
      delivery.next_attempt_at = null;
      return;
    }
    if (delivery.attempts.length >= MAX_ATTEMPTS) {
      delivery.outcome = 'failed';
      delivery.next_attempt_at = null;
      return;
    }
    const delay = Math.min(this.options.retryBaseMs * 2 ** (delivery.attempts.length - 1), this.options.maxDelayMs ?? 60_000);
    delivery.next_attempt_at = iso(Date.now() + delay);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery, endpoint, operation, generation);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
