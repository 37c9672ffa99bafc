// A route read back from the window's history after a reload or Back: what the station wrote is
// taken as it was; anything else (another page's state, a handle that is not ours, a screen that
// no longer exists) is refused, so the look-up shows instead of a broken screen.
import { describe, expect, it } from 'vitest';
import { routeOf } from '../../../renderer/state/route';

describe('routeOf', () => {
  it('takes the routes the station writes', () => {
    for (const route of [
      { name: 'lookup' },
      { name: 'patient', patientRef: 'pt_abc123' },
      { name: 'patient' },
      { name: 'workflow', workflowId: 'wf_abc123' },
      { name: 'claims', workflowId: 'wf_abc123' },
      { name: 'work' },
      { name: 'settings' },
    ]) {
      expect(routeOf(route)).toEqual(route);
    }
  });

  it('refuses what is not a route of the station', () => {
    for (const junk of [null, 'lookup', {}, { name: 'admin' }, { name: 'workflow' }, { name: 'workflow', workflowId: '../x' }, { name: 'patient', patientRef: 42 }, { name: 'claims', workflowId: 'x'.repeat(101) }]) {
      expect(routeOf(junk), JSON.stringify(junk)).toBeNull();
    }
  });

  it('keeps nothing but the route\'s own fields', () => {
    expect(routeOf({ name: 'lookup', patientName: 'Otieno' })).toEqual({ name: 'lookup' });
    expect(routeOf({ name: 'workflow', workflowId: 'wf_abc123', extra: 1 })).toEqual({ name: 'workflow', workflowId: 'wf_abc123' });
  });
});
