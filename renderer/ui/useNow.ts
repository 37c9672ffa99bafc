// A clock for countdowns, on the station's time (./station-time): re-renders every `everyMs` while
// mounted, and at once when the station's clock jumps.
import { useEffect, useState } from 'react';
import { useStationTime } from './station-time';

export function useNow(everyMs = 1000): number {
  const offsetMs = useStationTime((s) => s.offsetMs);
  const [machineNow, setMachineNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setMachineNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return machineNow + offsetMs;
}
