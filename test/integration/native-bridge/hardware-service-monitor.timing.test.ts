// How long the hardware-service monitor waits for a service that never answers, measured on the
// wall clock (the timing group: one file at a time, with nothing else of the suite beside it).
import { describe, expect, it } from 'vitest';
import { HardwareServiceMonitor } from '../../../native-bridge/agent/monitor';
import { startStandIn } from './hardware-service-stand-in';

describe('the hardware-service monitor', () => {
  it('waits its timeout for a service that never answers, then says it is not running', async () => {
    const service = await startStandIn();
    service.hang = true;
    const m = new HardwareServiceMonitor({ baseUrls: [service.baseUrl], pollIntervalMs: 60_000, timeoutMs: 400 });
    try {
      const started = Date.now();
      const state = await m.check();
      expect(state.kind).toBe('not-running');
      expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    } finally {
      await m.stop();
      await service.stop();
    }
  });
});
