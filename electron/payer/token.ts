// The bearer token: fetched once for everyone who needs it at the same moment (single flight),
// replaced before it runs out, and dropped when the exchange says it expired.

export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresInSeconds: number;
}

interface HeldToken {
  readonly value: string;
  /** Past this instant the token is refreshed before use. */
  readonly refreshAt: number;
}

/** Rejects with the signal's reason as soon as it aborts; the shared promise itself runs on. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

export class TokenManager {
  private held: HeldToken | undefined;
  private inflight: Promise<HeldToken> | undefined;

  /**
   * @param fetchToken asks the exchange for a new token (its own timeout; no caller's signal, since
   *   other callers may be waiting on the same request)
   * @param refreshMarginMs refresh this long before expiry (at most half the token's lifetime)
   */
  constructor(
    private readonly fetchToken: () => Promise<IssuedToken>,
    private readonly now: () => number,
    private readonly refreshMarginMs: number,
  ) {}

  /** The held token while it has lifetime left, without waiting; undefined when one must be fetched. */
  current(): string | undefined {
    const held = this.held;
    return held !== undefined && this.now() < held.refreshAt ? held.value : undefined;
  }

  /** A token with lifetime left, waiting for a fetch only when there is none. */
  async get(signal: AbortSignal): Promise<string> {
    return this.current() ?? (await untilAborted(this.refresh(), signal)).value;
  }

  /** Fetches a new token, or joins the fetch already under way. */
  refresh(): Promise<HeldToken> {
    if (this.inflight !== undefined) return this.inflight;
    const inflight = this.fetchToken()
      .then((issued) => {
        const lifetimeMs = issued.expiresInSeconds * 1000;
        const margin = Math.min(this.refreshMarginMs, lifetimeMs / 2);
        const held = { value: issued.accessToken, refreshAt: this.now() + lifetimeMs - margin };
        this.held = held;
        return held;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    // Every waiter may have given up (aborted); the failure must not go unhandled then.
    inflight.catch(() => undefined);
    this.inflight = inflight;
    return inflight;
  }

  /** Forget `token` after the exchange called it expired, unless a newer one already replaced it. */
  invalidate(token: string): void {
    if (this.held?.value === token) this.held = undefined;
  }

  clear(): void {
    this.held = undefined;
  }
}
