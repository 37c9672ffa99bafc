// The station's time in its status: `now` on the station's clock (in training the sandbox's), and
// a station.statusChanged as soon as that clock jumps, so the renderer's countdowns follow it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, fastTiming, startWorld, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

describe('the station clock in the status', () => {
  it('answers the station’s now, and announces a jump of its clock (not a drift)', async () => {
    let lead = 0;
    const s = await world.station({ extra: { clock: { now: () => Date.now() + lead }, timing: { ...fastTiming, clockCheckMs: 20 } } });
    const before = Date.now();
    const status = await s.ok('station.status', {});
    // Read between the two readings of this machine's clock, however long the call took.
    expect(Date.parse(status.now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(status.now)).toBeLessThanOrEqual(Date.now());
    const announced = () => s.events.filter((e) => e.type === 'station.statusChanged').length;

    const quiet = announced();
    lead = 300;
    await new Promise((r) => setTimeout(r, 200));
    expect(announced(), 'a drift under a second is not a jump').toBe(quiet);

    lead = 24 * 3600_000;
    const event = await eventually(
      () => s.events.findLast((e) => e.type === 'station.statusChanged'),
      (e) => e !== undefined && e.type === 'station.statusChanged' && Date.parse(e.status.now) - Date.now() > 23 * 3600_000,
      'the jump to be announced',
    );
    expect(event?.type).toBe('station.statusChanged');
    expect(Date.parse((await s.ok('station.status', {})).now) - Date.now()).toBeGreaterThan(23 * 3600_000);
  });
});
