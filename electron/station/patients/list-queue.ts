// The station's service-list fetches, in lanes, so that the lists never take the connections the
// nurse's own calls (the next look-up, the code, the visit) need.

/**
 * How a list is asked for: `now`, the nurse waits for it (started at once); `soon`, what the
 * suggestion may need; `background`, the rest. The last two wait their turn, LIST_CONCURRENCY at a
 * time across the station, newest look-up first.
 */
export type Lane = 'now' | 'soon' | 'background';
const laneRank: Record<Lane, number> = { now: 0, soon: 1, background: 2 };

/**
 * Lists fetched at a time in their turn, all patients together. The exchange client holds eight
 * connections; with three for the lists, the lists the nurse waits for (`now`, not counted here),
 * the utilization and the previous patient's stragglers, the nurse's own calls (the next look-up,
 * the code, the visit, the fingerprint look-up) still find a free one instead of queuing behind the
 * services list (measured with the ward profile: at four, a look-up's eligibility call waited
 * hundreds of milliseconds for a connection).
 */
const LIST_CONCURRENCY = 3;

export interface Queued<T> {
  readonly promise: Promise<T>;
  /** Moves a list still waiting to a more urgent lane (`now` starts it). */
  raise(lane: Lane): void;
}

interface Waiting {
  lane: Lane;
  readonly generation: number;
  readonly seq: number;
  readonly start: () => void;
}

/** `now` at once, the others LIST_CONCURRENCY at a time beside them. */
export class ListQueue {
  private running = 0;
  private serial = 0;
  private readonly waiting: Waiting[] = [];

  enqueue<T>(lane: Lane, generation: number, task: () => Promise<T>): Queued<T> {
    let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
    const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    let started = false;
    const item: Waiting = {
      lane,
      generation,
      seq: ++this.serial,
      start: () => {
        started = true;
        const counted = item.lane !== 'now';
        if (counted) this.running += 1;
        task()
          .then(settle.resolve, settle.reject)
          .finally(() => {
            if (counted) this.running -= 1;
            this.pump();
          });
      },
    };
    if (lane === 'now') item.start();
    else {
      this.waiting.push(item);
      this.pump();
    }
    return {
      promise,
      raise: (to) => {
        if (started || laneRank[to] >= laneRank[item.lane]) return;
        if (to !== 'now') {
          item.lane = to;
          return;
        }
        this.waiting.splice(this.waiting.indexOf(item), 1);
        item.lane = 'now';
        item.start();
      },
    };
  }

  private pump(): void {
    while (this.running < LIST_CONCURRENCY && this.waiting.length > 0) {
      this.waiting.sort((a, b) => laneRank[a.lane] - laneRank[b.lane] || b.generation - a.generation || a.seq - b.seq);
      this.waiting.shift()!.start();
    }
  }
}
