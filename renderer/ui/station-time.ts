// The station's clock, which every countdown counts on. Deadlines come from the station core on its
// own clock — in training mode the sandbox's, which its clock control moves forward — so a countdown
// measured against this computer's clock would be off by however far that clock was moved. Every
// station status carries the station's `now`; the offset from this computer's clock is kept here.
import { create } from 'zustand';

/** A change smaller than this is the transport's delay, not a change of the station's clock. */
const JITTER_MS = 500;

export const useStationTime = create<{ readonly offsetMs: number }>()(() => ({ offsetMs: 0 }));

/** Follows the station's `now` (of a station status), read when this computer's clock said `receivedAt`. */
export function followStationTime(stationNow: string | undefined, receivedAt = Date.now()): void {
  const at = stationNow === undefined ? Number.NaN : Date.parse(stationNow);
  if (!Number.isFinite(at)) return;
  const offsetMs = at - receivedAt;
  if (Math.abs(offsetMs - useStationTime.getState().offsetMs) >= JITTER_MS) useStationTime.setState({ offsetMs });
}

/** The station's time now, in milliseconds since the epoch. */
export function stationNow(): number {
  return Date.now() + useStationTime.getState().offsetMs;
}
