// The per-launch secret is read from the URL fragment once, kept for the tab and wiped from the
// address bar; a reload finds it in session storage.
import { describe, expect, it } from 'vitest';
import { keepLaunchSecret, takeLaunchSecret } from '../../../renderer/bridge/secret';

function tab(hash: string) {
  const stored = new Map<string, string>();
  const replaced: string[] = [];
  return {
    location: { hash, pathname: '/', search: '' },
    history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url) },
    storage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) },
    replaced,
  };
}

describe('launch secret', () => {
  it('takes it from #k=, keeps it for the tab and clears the address bar', () => {
    const t = tab('#k=abc-123_XYZ');
    expect(takeLaunchSecret(t.location, t.history, t.storage)).toEqual({ secret: 'abc-123_XYZ' });
    expect(t.replaced).toEqual(['/']);
    expect(takeLaunchSecret({ ...t.location, hash: '' }, t.history, t.storage)).toEqual({ secret: 'abc-123_XYZ' });
  });

  it('has none without a fragment or a stored one', () => {
    const t = tab('');
    expect(takeLaunchSecret(t.location, t.history, t.storage)).toBeNull();
    expect(t.replaced).toEqual([]);
  });

  it('keeps other fragment parameters', () => {
    const t = tab('#k=s3cret&lang=sw');
    expect(takeLaunchSecret(t.location, t.history, t.storage)).toEqual({ secret: 's3cret' });
    expect(t.replaced).toEqual(['/#lang=sw']);
  });

  it('takes a one-time launch code from #c= without keeping it; the secret it is exchanged for is kept', () => {
    const t = tab('#c=once-only');
    expect(takeLaunchSecret(t.location, t.history, t.storage)).toEqual({ code: 'once-only' });
    expect(t.replaced).toEqual(['/']);
    expect(takeLaunchSecret({ ...t.location, hash: '' }, t.history, t.storage)).toBeNull();
    keepLaunchSecret(t.storage, 'the-secret');
    expect(takeLaunchSecret({ ...t.location, hash: '' }, t.history, t.storage)).toEqual({ secret: 'the-secret' });
  });
});
