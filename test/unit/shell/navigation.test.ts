import { describe, expect, it } from 'vitest';
import { NavigationPolicy } from '../../../electron/main/navigation';
import { APP_ENTRY_URL, isAllowedUrl, isAppUrl, normaliseOrigins, originOf } from '../../../electron/main/origins';
import type { GuardedContentsApi } from '../../../electron/main/electron-api';
import { FakeContents, asApi, fakeEvent, recordingLog } from './fake-electron';

const payer = normaliseOrigins(['https://payer.example.com']);

const tricky = [
  'https://payer.example.com.attacker.net/verify',
  'https://payer.example.com@attacker.net/verify',
  'https://user:pass@payer.example.com/verify',
  'https://attacker.net/?next=https://payer.example.com',
  'https://attacker.net/https://payer.example.com/',
  'javascript:alert(document.cookie)',
  'JaVaScRiPt:alert(1)',
  'file:///etc/passwd',
  'file://payer.example.com/verify',
  'data:text/html,<script>alert(1)</script>',
  'blob:https://payer.example.com/0b7e7a52-0000-4000-8000-000000000000',
  'http://payer.example.com/verify',
  'https://payer.example.com:8443/verify',
  'wss://payer.example.com/socket',
  'ftp://payer.example.com/',
  'about:blank',
  'chrome://settings',
  'app://idhini/index.html',
  'https://xn--pyer-example-5ib.com/',
  '',
  'not a url',
];

describe('origins', () => {
  it('allows exactly the allowlisted origin, whatever the path or query', () => {
    expect(isAllowedUrl('https://payer.example.com/verify?req=1#x', payer)).toBe(true);
    expect(isAllowedUrl('https://PAYER.example.com:443/verify', payer)).toBe(true);
  });

  it.each(tricky)('refuses %s', (url) => {
    expect(isAllowedUrl(url, payer)).toBe(false);
  });

  it('gives app://idhini an origin of its own and nothing else of that scheme', () => {
    expect(originOf(APP_ENTRY_URL)).toBe('app://idhini');
    expect(isAppUrl('app://idhini/assets/index.js')).toBe(true);
    expect(isAppUrl('app://idhini.attacker.net/index.html')).toBe(false);
    expect(isAppUrl('app://idhini:1234/index.html')).toBe(false);
    expect(isAppUrl('app://user@idhini/index.html')).toBe(false);
  });

  it('normalises the allowlist and drops entries that are not plain origins', () => {
    const set = normaliseOrigins(['https://payer.example.com/', 'https://other.example.com/path', 'http://attacker.net', 'javascript:1', 'http://127.0.0.1:4010']);
    expect([...set]).toEqual(['https://payer.example.com', 'http://127.0.0.1:4010']);
  });
});

describe('NavigationPolicy', () => {
  const setUp = () => {
    const log = recordingLog();
    const policy = new NavigationPolicy(log);
    const contents = new FakeContents();
    policy.attach(asApi<GuardedContentsApi>(contents));
    return { log, policy, contents };
  };

  it('lets an allowlisted navigation through in every navigation event', () => {
    const { policy, contents } = setUp();
    policy.allow(contents.id, (url) => isAllowedUrl(url, payer));
    for (const kind of ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const) {
      expect(contents.navigate(kind, 'https://payer.example.com/next')).toBe(true);
    }
  });

  it.each(tricky)('refuses %s in will-navigate, will-frame-navigate and will-redirect', (url) => {
    const { policy, contents } = setUp();
    policy.allow(contents.id, (target) => isAllowedUrl(target, payer));
    for (const kind of ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const) {
      expect(contents.navigate(kind, url)).toBe(false);
    }
  });

  it('refuses every navigation of a webContents nobody gave a rule, and after its rule is forgotten', () => {
    const { policy, contents, log } = setUp();
    expect(contents.navigate('will-navigate', 'https://payer.example.com/')).toBe(false);
    policy.allow(contents.id, isAppUrl);
    expect(contents.navigate('will-navigate', 'app://idhini/index.html')).toBe(true);
    policy.forget(contents.id);
    expect(contents.navigate('will-navigate', 'app://idhini/index.html')).toBe(false);
    expect(log.lines.filter((l) => l.message === 'navigation refused')).toHaveLength(2);
  });

  it('denies every new window, even to an allowed origin', () => {
    const { policy, contents } = setUp();
    policy.allow(contents.id, () => true);
    expect(contents.windowOpenHandler?.({ url: 'https://payer.example.com/popup' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'app://idhini/index.html' })).toEqual({ action: 'deny' });
  });

  it('refuses to attach a <webview>', () => {
    const { contents } = setUp();
    const event = fakeEvent({});
    contents.emit('will-attach-webview', event, {}, { src: 'https://payer.example.com/' });
    expect(event.defaultPrevented).toBe(true);
  });

  it('logs a refused URL by scheme and host only: its path or query may carry a token', () => {
    const { contents, log } = setUp();
    contents.navigate('will-redirect', 'https://attacker.net/steal?token=eyJhbGciOi.secret');
    expect(JSON.stringify(log.lines)).not.toContain('eyJhbGciOi');
    expect(log.lines[0]?.fields.target).toBe('https://attacker.net');
  });
});
