import { describe, expect, it, vi } from 'vitest';
import { AuthorizationView } from '../../../electron/main/authorization-view';
import type { GuardedContentsApi, LinkSessionApi, LinkViewApi } from '../../../electron/main/electron-api';
import { NavigationPolicy } from '../../../electron/main/navigation';
import { normaliseOrigins } from '../../../electron/main/origins';
import { outputExamples } from '../contract/examples';
import { FakeSession, FakeView, asApi, recordingLog } from './fake-electron';

const awaiting = outputExamples['consent.startFingerprint'];
const handle = 'lk_c0ffee42';
const area = { x: 10.4, y: 20, width: 300, height: 400 };

/** The URL the core keeps behind the handle (station.authorizationLink), embed token included. */
const linkUrl = 'https://ekyc.example.com/verify/req-1234';

function setUp(allowed = ['https://ekyc.example.com']) {
  const log = recordingLog();
  const links = new Map([[handle, linkUrl]]);
  const navigation = new NavigationPolicy(log);
  const attached: FakeView[] = [];
  let zoom = 1;
  const view = new AuthorizationView<LinkSessionApi, LinkViewApi>({
    createSession: (partition) => asApi<LinkSessionApi>(new FakeSession(partition)),
    createView: (session) => {
      const created = new FakeView(session as unknown as FakeSession);
      // What app 'web-contents-created' does for every webContents.
      navigation.attach(asApi<GuardedContentsApi>(created.webContents));
      return asApi<LinkViewApi>(created);
    },
    attach: (v) => void attached.push(v as unknown as FakeView),
    detach: (v) => void attached.splice(attached.indexOf(v as unknown as FakeView), 1),
    zoomFactor: () => zoom,
    allowedOrigins: () => normaliseOrigins(allowed),
    linkUrl: (h) => links.get(h) ?? null,
    deviceServicePorts: () => [18065],
    navigation,
    log,
  });
  return { view, attached, log, links, setZoom: (z: number) => (zoom = z) };
}

describe('the authorization view (WebContentsView over the reserved area)', () => {
  it('shows a link learned from a workflow view over the area, in a fresh in-memory session', () => {
    const { view, attached } = setUp();
    view.learn({ ok: true, value: awaiting });
    expect(view.setArea({ handle, area })).toEqual({ ok: true, value: { shownBy: 'shell' } });
    expect(attached).toHaveLength(1);
    const shown = attached[0]!;
    expect(shown.webContents.loaded).toEqual(['https://ekyc.example.com/verify/req-1234']);
    expect(shown.bounds).toEqual({ x: 10, y: 20, width: 300, height: 400 });
    expect(shown.session.partition).not.toMatch(/^persist:/);
    expect(shown.session.requestHandler).not.toBeNull();
    expect(shown.session.checkHandler).not.toBeNull();
  });

  it('scales the area by the station window zoom, and moves the view without reloading it', () => {
    const { view, attached, setZoom } = setUp();
    view.learn(awaiting);
    view.setArea({ handle, area });
    setZoom(1.5);
    view.setArea({ handle, area: { x: 0, y: 100, width: 200, height: 100 } });
    expect(attached).toHaveLength(1);
    expect(attached[0]!.bounds).toEqual({ x: 0, y: 150, width: 300, height: 150 });
    expect(attached[0]!.webContents.loaded).toHaveLength(1);
  });

  it('limits the view to the allowlist: the payer page may not navigate away', () => {
    const { view, attached } = setUp();
    view.learn(awaiting);
    view.setArea({ handle, area });
    const contents = attached[0]!.webContents;
    expect(contents.navigate('will-navigate', 'https://ekyc.example.com/step-2')).toBe(true);
    expect(contents.navigate('will-navigate', 'https://ekyc.example.com.attacker.net/')).toBe(false);
    expect(contents.navigate('will-redirect', 'https://attacker.net/')).toBe(false);
    expect(contents.windowOpenHandler?.({ url: 'https://ekyc.example.com/popup' })).toEqual({ action: 'deny' });
  });

  it('grants Local Network Access to the payer page and nothing else', async () => {
    const { view, attached } = setUp();
    view.learn(awaiting);
    view.setArea({ handle, area });
    const session = attached[0]!.session;
    expect(await session.request('loopback-network', 'https://ekyc.example.com/verify/req-1234')).toBe(true);
    expect(await session.request('local-network-access', 'https://attacker.net/')).toBe(false);
    expect(await session.request('media', 'https://ekyc.example.com/verify/req-1234')).toBe(false);
  });

  it('closes the view when the area goes and wipes its session whole before another link may use it', async () => {
    const { view, attached } = setUp();
    view.learn(awaiting);
    view.setArea({ handle, area });
    const first = attached[0]!;
    view.setArea({ handle, area: null });
    expect(attached).toHaveLength(0);
    expect(first.webContents.closed).toBe(true);
    await vi.waitFor(() => expect(first.session.cleared).toHaveLength(1));
    expect(first.session).toMatchObject({ cacheCleared: 1, authCacheCleared: 1, connectionsClosed: 1 });
    expect(first.session.partition).not.toMatch(/^persist:/);
    view.setArea({ handle, area });
    // Wiped, it serves the next link: Electron never frees a partition's session, so none is made per link.
    expect(attached[0]!.session).toBe(first.session);
    expect(attached[0]!.webContents).not.toBe(first.webContents);
  });

  it('makes no more link sessions than links open at once, however many links a shift shows', async () => {
    const { view, attached } = setUp();
    view.learn(awaiting);
    for (let i = 0; i < 50; i++) {
      view.setArea({ handle, area });
      view.setArea({ handle, area: null });
      await vi.waitFor(() => expect(attached).toHaveLength(0));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(view.sessionsMade).toBe(1);
  });

  it('keeps the page to the device service port on this machine, and off the hospital network', async () => {
    const { view, attached } = setUp();
    view.learn(awaiting);
    view.setArea({ handle, area });
    const session = attached[0]!.session;
    expect(await session.send(linkUrl, 'mainFrame')).toBe(true);
    expect(await session.send('http://localhost:18065/status')).toBe(true);
    expect(await session.send('http://127.0.0.1:18066/status')).toBe(false);
    expect(await session.send('http://10.0.0.5/')).toBe(false);
    expect(await session.send('https://cdn.example.net/app.js', 'script')).toBe(true);
  });

  it('closes the view by itself once the workflow no longer carries the link', () => {
    const { view, attached } = setUp();
    view.learn(awaiting);
    view.setArea({ handle, area });
    view.learn({ type: 'workflow.updated', view: outputExamples['consent.cancel'] });
    expect(attached).toHaveLength(0);
    expect(view.setArea({ handle, area })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('takes the URL from the core: the view the renderer holds carries the link origin only', () => {
    const { view, attached, links } = setUp();
    const step = (awaiting as { verification: { fingerprint: { link: { expiresAt: string } } } }).verification;
    view.learn({ ok: true, value: { ...awaiting, verification: { ...step, fingerprint: { link: { handle, url: 'https://ekyc.example.com/', expiresAt: step.fingerprint.link.expiresAt }, checkedAt: null } } } });
    links.set(handle, 'https://ekyc.example.com/verify/req-1234?t=embed-token');
    view.setArea({ handle, area });
    expect(attached[0]!.webContents.loaded).toEqual(['https://ekyc.example.com/verify/req-1234?t=embed-token']);
    view.setArea({ handle, area: null });
    links.delete(handle);
    expect(view.setArea({ handle, area })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('refuses an unknown handle and a link whose origin is not allowlisted', () => {
    const { view, attached } = setUp(['https://payer.example.com']);
    expect(view.setArea({ handle: 'lk_unknown01', area })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    view.learn(awaiting);
    expect(view.setArea({ handle, area })).toMatchObject({ ok: false, error: { code: 'VALIDATION', details: { field: 'handle' } } });
    expect(attached).toHaveLength(0);
  });

  it('reopens the link once in a fresh session when its renderer dies', () => {
    const { view, attached } = setUp();
    view.learn(awaiting);
    view.setArea({ handle, area });
    const first = attached[0]!;
    first.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(attached).toHaveLength(1);
    const second = attached[0]!;
    expect(second).not.toBe(first);
    expect(second.session).not.toBe(first.session);
    second.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(attached).toHaveLength(0);
  });
});
