// When a read may be tried again, and how long to wait first.

export interface RetryPolicy {
  /** Tries in all, the first included (1 = never retry). */
  readonly attempts: number;
  readonly baseDelayMs: number;
  /** No wait is longer; a Retry-After beyond it ends the retries instead. */
  readonly maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 3, baseDelayMs: 200, maxDelayMs: 2_000 };

/** Gateways and overload say "try later"; every other status is an answer. */
export const retryableStatuses: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Exponential backoff with "equal jitter": half the step is fixed so retries never bunch at zero,
 * half is random so many stations do not retry in step after an outage.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return step / 2 + (random() * step) / 2;
}

/**
 * The wait before retry number `retry` (1-based), or undefined when there should be none: the
 * server asked for longer than we wait (Retry-After beyond maxDelayMs).
 */
export function retryDelay(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  return backoffDelay(retry, policy);
}
