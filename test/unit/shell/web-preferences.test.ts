import { describe, expect, it } from 'vitest';
import { linkWebPreferences, stationWebPreferences } from '../../../electron/main/web-preferences';
import { expectHardened } from './hardened-preferences';

describe('webPreferences', () => {
  it('the station window: every security flag, the preload, dev tools only when asked', () => {
    const prefs = stationWebPreferences({ preload: '/app/preload.cjs', devTools: false });
    expectHardened(prefs);
    expect(prefs.preload).toBe('/app/preload.cjs');
    expect(prefs.devTools).toBe(false);
    expect(prefs).not.toHaveProperty('partition');
  });

  it('the authorization view: every security flag, its own session, no preload, no dialogs, no dev tools', () => {
    const session = { partition: 'link-1' } as unknown as Parameters<typeof linkWebPreferences>[0];
    const prefs = linkWebPreferences(session);
    expectHardened(prefs);
    expect(prefs.session).toBe(session);
    expect(prefs).not.toHaveProperty('preload');
    expect(prefs.devTools).toBe(false);
    expect(prefs.disableDialogs).toBe(true);
  });
});
