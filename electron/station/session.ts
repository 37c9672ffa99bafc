// The facility's session with the exchange: one exchange client built from the settings and the
// client secret in the secret store. The secret goes into the client and the scrubber, nowhere else.
// The client's own telemetry (free of secrets by construction) tells whether the exchange answers:
// every attempt moves the station's status (a 5xx or no answer: not answering; any other answer:
// answering), and a change is pushed to the renderer as station.statusChanged.
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { facilitySession } from '../contract';
import type { ExchangeClient, ExchangeClientOptions, ExchangeEvent } from '../payer';
import type { Clock } from './deps';
import { fail, fromExchangeError, type Scrub } from './errors';
import type { Scrubber } from './logging';
import type { SettingsStore } from './settings';
import { isExchangeError } from '../payer';

export type FacilitySession = z.infer<typeof facilitySession>;

export interface Reachability {
  state: 'reachable' | 'unreachable' | 'unknown';
  checkedAt: string | null;
  latencyMs: number | null;
}

export class ExchangeSession {
  private current: ExchangeClient | undefined;
  private signedInAt: string | null = null;
  readonly reachability: Reachability = { state: 'unknown', checkedAt: null, latencyMs: null };
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly o: {
      settings: SettingsStore;
      factory: (options: ExchangeClientOptions) => ExchangeClient;
      clock: Clock;
      log: Logger;
      scrubber: Scrubber;
      scrub: Scrub;
      timeoutMs: number;
    },
  ) {}

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The client for the exchange calls; NOT_SIGNED_IN until the facility has signed in. */
  client(): ExchangeClient {
    if (this.current === undefined) fail('NOT_SIGNED_IN', 'The facility is not signed in to the exchange.');
    return this.current;
  }

  get hasClient(): boolean {
    return this.current !== undefined;
  }

  view(): FacilitySession {
    const s = this.o.settings.values;
    return {
      signedIn: this.signedInAt !== null,
      facilityCode: s.facilityCode,
      facilityName: s.facilityName,
      trainingMode: s.trainingMode,
      exchangeOrigin: s.exchangeBaseUrl === null ? null : new URL(s.exchangeBaseUrl).origin,
      signedInAt: this.signedInAt,
    };
  }

  /** On start: a client from the stored credentials, so unfinished workflows can be reconciled. */
  async resume(): Promise<void> {
    const secret = await this.o.settings.clientSecret();
    const { clientId, exchangeBaseUrl } = this.o.settings.values;
    if (secret === undefined || clientId === null || exchangeBaseUrl === null) return;
    this.o.scrubber.add(secret);
    await this.replace(this.build(exchangeBaseUrl, clientId, secret));
    // Signed in only once the exchange has accepted the credentials; reconciliation does not wait for it.
    void this.current
      ?.auth.authenticate()
      .then(() => this.markSignedIn())
      .catch((error: unknown) => this.o.log.warn({ errorKind: isExchangeError(error) ? error.kind : 'internal' }, 'stored credentials not accepted yet'));
  }

  async signIn(clientId: string | undefined, clientSecret: string | undefined): Promise<FacilitySession> {
    const settings = this.o.settings.values;
    if (settings.exchangeBaseUrl === null) fail('SETTINGS_MISSING', 'Set the exchange URL first.', { issues: [{ field: 'exchangeBaseUrl', message: 'is missing' }] });
    const id = clientId ?? settings.clientId;
    const secret = clientSecret ?? (await this.o.settings.clientSecret());
    if (id === null || id === undefined || secret === undefined) {
      fail('SETTINGS_MISSING', 'Give the facility’s client id and secret.', { issues: [{ field: clientId === undefined ? 'clientId' : 'clientSecret', message: 'is missing' }] });
    }
    this.o.scrubber.add(secret);
    const candidate = this.build(settings.exchangeBaseUrl, id, secret);
    try {
      await candidate.auth.authenticate();
    } catch (error) {
      await candidate.close();
      if (isExchangeError(error)) {
        const mapped = fromExchangeError(error, this.o.scrub);
        if (error.kind === 'unauthorized' || error.kind === 'forbidden' || error.kind === 'validation') {
          fail('SIGN_IN_FAILED', 'The exchange refused the facility’s client id or secret.', mapped.details);
        }
        fail(mapped.code, mapped.message, mapped.details);
      }
      throw error;
    }
    if (clientSecret !== undefined) await this.o.settings.storeClientSecret(clientSecret);
    if (clientId !== undefined && clientId !== settings.clientId) this.o.settings.update({ clientId });
    await this.replace(candidate);
    this.markSignedIn();
    return this.view();
  }

  async signOut(forgetCredentials: boolean): Promise<FacilitySession> {
    await this.replace(undefined);
    this.signedInAt = null;
    if (forgetCredentials) {
      await this.o.settings.forgetClientSecret();
      this.o.settings.update({ clientId: null });
    }
    this.changed();
    return this.view();
  }

  /** Settings that the client was built from changed: build it again on the next sign-in. */
  async settingsChanged(): Promise<void> {
    if (this.current === undefined) return;
    this.signedInAt = null;
    await this.replace(undefined);
    await this.resume();
    this.changed();
  }

  async close(): Promise<void> {
    await this.replace(undefined);
  }

  private markSignedIn(): void {
    this.signedInAt = new Date(this.o.clock.now()).toISOString();
    this.changed();
  }

  private build(baseUrl: string, clientId: string, clientSecret: string): ExchangeClient {
    const { facilityCode } = this.o.settings.values;
    return this.o.factory({
      baseUrl,
      credentials: { clientId, clientSecret },
      ...(facilityCode === null ? {} : { facility: { id: facilityCode } }),
      timeoutMs: this.o.timeoutMs,
      // Token lifetimes on the station's clock (sandbox time in training mode).
      now: () => this.o.clock.now(),
      onEvent: (event) => this.observe(event),
    });
  }

  private async replace(next: ExchangeClient | undefined): Promise<void> {
    const previous = this.current;
    this.current = next;
    if (previous !== undefined && previous !== next) await previous.close();
  }

  private observe(event: ExchangeEvent): void {
    const before = this.reachability.state;
    this.reachability.checkedAt = new Date(this.o.clock.now()).toISOString();
    const state = reachabilityAfter(event);
    if (state !== undefined) this.reachability.state = state;
    if (state === 'reachable') this.reachability.latencyMs = event.durationMs;
    const level = event.outcome === 'ok' ? 'debug' : 'info';
    this.o.log[level](
      { operation: event.operation, path: event.path, status: event.status, ms: event.durationMs, attempt: event.attempt, errorKind: event.errorKind, errorCode: event.errorCode, traceId: event.traceId },
      'exchange call',
    );
    if (before !== this.reachability.state) this.changed();
  }

  private changed(): void {
    for (const listener of [...this.changeListeners]) listener();
  }
}

/**
 * What one HTTP attempt says of the exchange: answering when it answered below 500 (a refusal is an
 * answer too), not answering after a network error, a timeout or a 5xx — except a validation
 * refusal the live service sends as a 500. A call the caller aborted says nothing.
 */
export function reachabilityAfter(event: Pick<ExchangeEvent, 'status' | 'errorKind'>): Reachability['state'] | undefined {
  if (event.errorKind === 'network' || event.errorKind === 'timeout') return 'unreachable';
  if (event.status === undefined) return undefined;
  return event.status >= 500 && event.errorKind !== 'validation' ? 'unreachable' : 'reachable';
}
