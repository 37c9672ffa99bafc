// The authorization page the biometric authorize links to (the sandbox's stand-in for the payer's
// eKYC page): plain HTML with inline CSS and JS under a nonce-based CSP. It shows the masked
// patient name, the enrolled fingers and the time left, asks the workstation's device service for a
// capture, posts the template to the sandbox and, when the authorization ends, tells its parent
// frame with {type: "EKYC_COMPLETE", status}.

export interface PageSession {
  readonly status: string;
  readonly label: string;
  readonly facility_name: string;
  readonly patient_name: string;
  readonly patient_id: string;
  readonly fingers: readonly { finger: string; label: string }[];
  readonly expires_at: string | null;
  readonly expires_in_ms: number;
  readonly attempts_left: number;
  readonly reason: string | null;
  readonly device_service_url: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function fingerLabel(finger: string): string {
  const [hand = '', digit = ''] = finger.toLowerCase().split('_');
  return `${hand.charAt(0).toUpperCase()}${hand.slice(1)} ${digit}`.trim();
}

export function formatLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function pageCsp(nonce: string, deviceServiceUrl: string, frameAncestors: readonly string[]): string {
  const deviceOrigin = URL.canParse(deviceServiceUrl) ? new URL(deviceServiceUrl).origin : '';
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `connect-src 'self'${deviceOrigin === '' ? '' : ` ${deviceOrigin}`}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length === 0 ? "'none'" : frameAncestors.join(' ')}`,
  ].join('; ');
}

const STYLE = `
  :root { color-scheme: light; --ink: #1b2430; --muted: #55606e; --line: #d5dbe3; --ok: #1f7a3a; --bad: #b3261e;
          --warn: #8a5a00; --info: #1d4f91; --bg: #f3f5f8; }
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 100%; }
  body { font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--ink);
         background: var(--bg); display: flex; align-items: center; justify-content: center; padding: 12px; }
  main { width: 100%; max-width: 760px; background: #fff; border: 1px solid var(--line); border-radius: 12px;
         padding: 18px 22px; display: grid; gap: 14px; }
  header { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
  h1 { font-size: 1.45rem; margin: 0; }
  .eyebrow { margin: 0; font-size: .8rem; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); }
  .label { margin: 0; color: var(--muted); }
  .facts { display: grid; grid-template-columns: 1fr auto; gap: 12px; align-items: end; border-top: 1px solid var(--line);
           border-bottom: 1px solid var(--line); padding: 12px 0; }
  .k { display: block; font-size: .85rem; color: var(--muted); font-weight: 600; margin: 0 0 4px; }
  .name { font-size: 1.6rem; font-weight: 700; letter-spacing: .04em; }
  .timer { text-align: right; }
  .timer strong { font-size: 1.9rem; font-variant-numeric: tabular-nums; }
  .fingers { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 8px; }
  .fingers button { font: inherit; border: 2px solid var(--line); background: #fff; border-radius: 999px; padding: 8px 14px;
                    min-height: 44px; cursor: pointer; color: var(--ink); }
  .fingers button:disabled { cursor: default; opacity: .7; }
  .fingers button[aria-pressed="true"] { border-color: var(--info); background: #e8f0fb; font-weight: 600; }
  .none { color: var(--muted); margin: 0; }
  .status { border-radius: 10px; padding: 12px 14px; border: 2px solid; font-size: 1.05rem; }
  .status p { margin: 0; }
  .status.info { border-color: #a9c1e4; background: #eef4fc; color: var(--info); }
  .status.warn { border-color: #e6c57a; background: #fff7e6; color: var(--warn); }
  .status.ok { border-color: #8fcaa0; background: #ecf8ef; color: var(--ok); font-weight: 700; }
  .status.bad { border-color: #e3a29d; background: #fdeeed; color: var(--bad); font-weight: 700; }
  .actions { display: flex; justify-content: flex-end; gap: 8px; min-height: 48px; }
  .actions button { font: inherit; font-weight: 600; min-height: 48px; padding: 0 22px; border-radius: 8px; border: 0;
                    background: var(--info); color: #fff; cursor: pointer; }
  button:focus-visible { outline: 3px solid #f5b400; outline-offset: 2px; }
  .fine { margin: 0; font-size: .8rem; color: var(--muted); }
  @media (max-height: 520px) { main { padding: 12px 16px; gap: 10px; } .name { font-size: 1.3rem; } .timer strong { font-size: 1.5rem; } }
`;

// Plain ES2020 for the browser; no framework, no build step.
const SCRIPT = `
(function () {
  'use strict';
  var body = document.body;
  var sessionUrl = body.dataset.sessionUrl;
  var captureUrl = body.dataset.captureUrl;
  var deviceService = String(body.dataset.deviceService || '').replace(/\\/+$/, '');
  var $ = function (id) { return document.getElementById(id); };
  var TERMINAL = { AUTHORIZED: 'ok', AUTHORIZED_PENDING_VISIT: 'ok', REJECTED: 'bad', EXPIRED: 'bad' };
  var session = null, deadline = performance.now() + Number(body.dataset.expiresInMs || 0);
  var finished = false, busy = false, selectedFinger = null, pollTimer = 0;

  function setStatus(kind, text, action) {
    $('status').className = 'status ' + kind;
    $('status-text').textContent = text;
    var button = $('action');
    if (action) { button.textContent = action.label; button.hidden = false; button.onclick = action.run; }
    else { button.hidden = true; button.onclick = null; }
  }
  function fmt(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
  }
  function tick() {
    if (finished) return;
    var left = deadline - performance.now();
    $('time-left').textContent = fmt(left);
    if (left <= 0) refresh();
  }
  function messageOf(data) {
    if (!data) return '';
    var e = data.error;
    if (e && typeof e === 'object' && e.message) return String(e.message);
    if (typeof data.message === 'string') return data.message;
    if (typeof e === 'string') return e;
    return '';
  }
  function fetchJson(url, init, timeoutMs) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, timeoutMs);
    var options = Object.assign({ cache: 'no-store' }, init, { signal: controller.signal });
    return fetch(url, options).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (data) { return { ok: r.ok, status: r.status, data: data }; });
    }).finally(function () { clearTimeout(timer); });
  }
  function applySession(s) {
    session = s;
    deadline = performance.now() + Number(s.expires_in_ms || 0);
    if (TERMINAL[s.status]) { finish(s.status, s.reason); return; }
    tick();
  }
  function refresh() {
    return fetchJson(sessionUrl, {}, 5000).then(function (r) { if (r.ok && r.data) applySession(r.data); }, function () {});
  }
  function finish(status, reason) {
    if (finished) return;
    finished = true;
    clearInterval(pollTimer);
    var texts = {
      AUTHORIZED: 'Fingerprint matched. Consent confirmed.',
      AUTHORIZED_PENDING_VISIT: 'Fingerprint matched. Consent recorded; the visit opens once the preauthorization is approved.',
      REJECTED: reason === 'FINGERPRINT_NOT_MATCHED' ? 'Consent rejected: three fingerprints did not match.' : 'Consent rejected.',
      EXPIRED: 'This request has expired. Start a new verification from the station.'
    };
    setStatus(TERMINAL[status] === 'ok' ? 'ok' : 'bad', texts[status] || status, null);
    $('time-left').textContent = status === 'EXPIRED' ? '0:00' : '\\u2014';
    body.dataset.outcome = status;
    Array.prototype.forEach.call(document.querySelectorAll('[data-finger]'), function (b) { b.disabled = true; });
    if (window.parent && window.parent !== window) {
      var origins = window.location.ancestorOrigins;
      var target = origins && origins.length > 0 && origins[0] !== 'null' ? origins[0] : '*';
      window.parent.postMessage({ type: 'EKYC_COMPLETE', status: status }, target);
    }
  }
  function notRunning() {
    setStatus('warn', 'The device service is not running on this workstation (' + deviceService + '). Start it, then retry.', { label: 'Retry', run: checkDevice });
  }
  function checkDevice() {
    if (finished || busy) return;
    setStatus('info', 'Checking the fingerprint device service\\u2026', null);
    fetchJson(deviceService + '/status', {}, 4000).then(function (r) {
      if (finished) return;
      if (!r.ok || !r.data) { notRunning(); return; }
      var devices = Array.isArray(r.data.devices) ? r.data.devices : [];
      var usable = devices.filter(function (d) { return d && !/disconnect|offline|error|unavailable/i.test(String(d.status || '')); });
      if (usable.length === 0) {
        setStatus('warn', 'The device service is running but no fingerprint scanner is connected. Connect one, then retry.', { label: 'Retry', run: checkDevice });
        return;
      }
      capture();
    }, function () { if (!finished) notRunning(); });
  }
  function capture() {
    if (finished || busy) return;
    busy = true;
    setStatus('info', 'Place the patient\\u2019s finger on the scanner\\u2026', null);
    var payload = { hint: { patient_id: session ? session.patient_id : body.dataset.patientId } };
    if (selectedFinger) payload.finger = selectedFinger;
    fetchJson(deviceService + '/capture', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }, 65000)
      .then(function (r) {
        if (finished) return null;
        if (!r.ok || !r.data || typeof r.data.template !== 'string') {
          var m = messageOf(r.data);
          setStatus('warn', 'The capture failed' + (m ? ': ' + m : '.') + ' Try again.', { label: 'Scan again', run: capture });
          return null;
        }
        var sample = { template: r.data.template, deviceId: r.data.deviceId, protocol: r.data.protocol, templateBytes: r.data.templateBytes };
        return fetchJson(captureUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sample) }, 10000).then(function (sent) {
          if (sent.data && sent.data.session) applySession(sent.data.session);
          if (finished) return;
          if (sent.ok && sent.data) {
            if (!sent.data.matched) {
              var n = sent.data.attempts_left;
              setStatus('warn', 'That finger did not match. ' + n + (n === 1 ? ' attempt' : ' attempts') + ' left.', { label: 'Scan again', run: capture });
            }
          } else {
            setStatus('warn', 'The sandbox did not accept the capture' + (messageOf(sent.data) ? ': ' + messageOf(sent.data) : '.'), { label: 'Scan again', run: capture });
            refresh();
          }
        });
      }, function () {
        if (!finished) setStatus('warn', 'The device service stopped answering. Check that it is running, then retry.', { label: 'Retry', run: checkDevice });
      })
      .finally(function () { busy = false; });
  }
  Array.prototype.forEach.call(document.querySelectorAll('[data-finger]'), function (button) {
    button.addEventListener('click', function () {
      var finger = button.getAttribute('data-finger');
      selectedFinger = selectedFinger === finger ? null : finger;
      Array.prototype.forEach.call(document.querySelectorAll('[data-finger]'), function (b) {
        b.setAttribute('aria-pressed', String(b.getAttribute('data-finger') === selectedFinger));
      });
    });
  });
  setInterval(tick, 250);
  pollTimer = setInterval(refresh, 2000);
  refresh().then(function () { if (!finished) checkDevice(); });
})();
`;

export function renderAuthorizationPage(input: { nonce: string; session: PageSession; sessionUrl: string; captureUrl: string }): string {
  const s = input.session;
  const fingers =
    s.fingers.length === 0
      ? '<p class="none">No fingers enrolled.</p>'
      : `<ul id="fingers" class="fingers" aria-labelledby="fingers-title">${s.fingers
          .map((f) => `<li><button type="button" data-finger="${escapeHtml(f.finger)}" aria-pressed="false">${escapeHtml(f.label)}</button></li>`)
          .join('')}</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Fingerprint consent</title>
<style nonce="${input.nonce}">${STYLE}</style>
</head>
<body data-session-url="${escapeHtml(input.sessionUrl)}" data-capture-url="${escapeHtml(input.captureUrl)}"
      data-device-service="${escapeHtml(s.device_service_url)}" data-patient-id="${escapeHtml(s.patient_id)}"
      data-expires-in-ms="${s.expires_in_ms}">
<main aria-labelledby="title">
  <header>
    <div>
      <p class="eyebrow">SHA eKYC &middot; Idhini training sandbox</p>
      <h1 id="title">Fingerprint consent</h1>
    </div>
    <p class="label" id="label">${escapeHtml(s.label)} &middot; ${escapeHtml(s.facility_name)}</p>
  </header>
  <section class="facts" aria-label="Request">
    <div><span class="k">Patient</span><span class="name" id="patient-name">${escapeHtml(s.patient_name)}</span></div>
    <div class="timer"><span class="k">Time left</span><strong id="time-left">${formatLeft(s.expires_in_ms)}</strong></div>
  </section>
  <section aria-labelledby="fingers-title">
    <h2 class="k" id="fingers-title">Enrolled fingers (tap one to ask the scanner for it)</h2>
    ${fingers}
  </section>
  <section id="status" class="status info" role="status" aria-live="polite"><p id="status-text">Loading&hellip;</p></section>
  <div class="actions"><button id="action" type="button" hidden>Retry</button></div>
  <p class="fine">Training sandbox: no real patient data leaves this workstation.</p>
</main>
<script nonce="${input.nonce}">${SCRIPT}</script>
</body>
</html>`;
}

export function renderErrorPage(nonce: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fingerprint consent</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1>Fingerprint consent</h1><section class="status bad" role="status"><p>${escapeHtml(message)}</p></section></main></body></html>`;
}
