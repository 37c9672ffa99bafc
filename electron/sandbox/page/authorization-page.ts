// The authorization page the biometric authorize links to (the sandbox's stand-in for the payer's
// eKYC page): plain HTML with inline CSS and JS under a nonce-based CSP. It shows the masked
// patient name, the enrolled fingers and the time left, asks the workstation's device service for a
// capture, posts the template to the sandbox and, when the authorization ends, tells its parent
// frame with {type: "EKYC_COMPLETE", status}. A patient reads it too, in a Kenyan ward: every word
// is in English and Kiswahili side by side (the station's glossary holds the Swahili to its terms).

export interface PageSession {
  readonly status: string;
  readonly label: string;
  readonly facility_name: string;
  readonly patient_name: string;
  readonly patient_id: string;
  readonly fingers: readonly { finger: string; label: string; label_sw: string }[];
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

/** The finger in Kiswahili: "RIGHT_THUMB" → "Kidole gumba cha kulia". */
export function fingerLabelSw(finger: string): string {
  const [hand = '', digit = ''] = finger.toUpperCase().split('_');
  const name = fingerWordsSw[digit as keyof typeof fingerWordsSw];
  const side = hand === 'LEFT' ? 'cha kushoto' : hand === 'RIGHT' ? 'cha kulia' : '';
  return name === undefined ? fingerLabel(finger) : `${name} ${side}`.trim();
}

const fingerWordsSw = {
  THUMB: 'Kidole gumba',
  INDEX: 'Kidole cha shahada',
  MIDDLE: 'Kidole cha kati',
  RING: 'Kidole cha pete',
  LITTLE: 'Kidole kidogo',
} as const;

/** Everything the page says, in both languages (the script's messages included). */
export const pageWords = {
  en: {
    eyebrow: 'SHA eKYC · Idhini training sandbox',
    title: 'Fingerprint consent',
    patient: 'Patient',
    timeLeft: 'Time left',
    fingers: 'Enrolled fingers (tap one to ask the reader for it)',
    noFingers: 'No fingers enrolled.',
    loading: 'Loading…',
    fine: 'Training sandbox: no real patient data leaves this workstation.',
    retry: 'Retry',
    scanAgain: 'Scan again',
    authorized: 'Fingerprint matched. Consent confirmed.',
    authorizedPendingVisit: 'Fingerprint matched. Consent recorded; the visit opens once the preauthorization is approved.',
    rejectedMismatch: 'Consent rejected: three fingerprints did not match.',
    rejected: 'Consent rejected.',
    expired: 'This request has expired. Start a new verification from the station.',
    notRunning: 'The device service is not running on this workstation. Start it, then retry.',
    checking: 'Checking the fingerprint device service…',
    noScanner: 'The device service is running but no fingerprint reader is connected. Connect one, then retry.',
    place: 'Place the patient’s finger flat on the reader and keep it still…',
    captureFailed: 'The reader could not read the finger. Try again.',
    notMatchedOne: 'That finger did not match. 1 attempt left.',
    notMatchedMany: 'That finger did not match. {n} attempts left.',
    notAccepted: 'The sandbox did not accept the capture.',
    stopped: 'The device service stopped answering. Check that it is running, then retry.',
    invalid: 'This verification link is not valid. Start a new verification from the station.',
  },
  sw: {
    eyebrow: 'SHA eKYC · mfumo wa majaribio wa Idhini',
    title: 'Ridhaa kwa alama ya kidole',
    patient: 'Mgonjwa',
    timeLeft: 'Muda uliobaki',
    fingers: 'Vidole vilivyosajiliwa (gusa kimoja ili kisomaji kikisome)',
    noFingers: 'Hakuna kidole kilichosajiliwa.',
    loading: 'Inapakia…',
    fine: 'Mfumo wa majaribio: hakuna taarifa halisi ya mgonjwa inayotoka kwenye kompyuta hii.',
    retry: 'Jaribu tena',
    scanAgain: 'Soma tena',
    authorized: 'Alama ya kidole imelingana. Ridhaa imethibitishwa.',
    authorizedPendingVisit: 'Alama ya kidole imelingana. Ridhaa imerekodiwa; ziara itafunguliwa kibali cha awali kikiidhinishwa.',
    rejectedMismatch: 'Ridhaa imekataliwa: alama tatu za vidole hazikulingana.',
    rejected: 'Ridhaa imekataliwa.',
    expired: 'Muda wa ombi hili umekwisha. Anza uthibitisho mpya kwenye kompyuta hii.',
    notRunning: 'Huduma ya vifaa haifanyi kazi kwenye kompyuta hii. Iwashe, kisha jaribu tena.',
    checking: 'Tunakagua huduma ya vifaa ya alama za vidole…',
    noScanner: 'Huduma ya vifaa inafanya kazi lakini hakuna kisomaji cha alama za vidole kilichounganishwa. Unganisha kimoja, kisha jaribu tena.',
    place: 'Weka kidole cha mgonjwa sawasawa juu ya kisomaji na usikisogeze…',
    captureFailed: 'Kisomaji hakikuweza kusoma kidole. Jaribu tena.',
    notMatchedOne: 'Kidole hicho hakikulingana. Jaribio 1 limebaki.',
    notMatchedMany: 'Kidole hicho hakikulingana. Majaribio {n} yamebaki.',
    notAccepted: 'Mfumo wa majaribio haukukubali usomaji huo.',
    stopped: 'Huduma ya vifaa imeacha kujibu. Hakikisha inafanya kazi, kisha jaribu tena.',
    invalid: 'Kiungo hiki cha uthibitisho si halali. Anza uthibitisho mpya kwenye kompyuta hii.',
  },
} as const;

type WordKey = keyof (typeof pageWords)['en'];

/** One message in both languages: English, then Kiswahili. */
function both(key: WordKey): string {
  return `<span lang="en">${escapeHtml(pageWords.en[key])}</span> <span lang="sw" class="sw">${escapeHtml(pageWords.sw[key])}</span>`;
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
  body { font: 18px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--ink);
         background: var(--bg); display: flex; align-items: center; justify-content: center; padding: 12px; }
  main { width: 100%; max-width: 900px; background: #fff; border: 1px solid var(--line); border-radius: 12px;
         padding: 18px 22px; display: grid; gap: 14px; }
  .sw { display: block; color: var(--muted); font-size: .92em; }
  button .sw, .status .sw { color: inherit; }
  header { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
  h1 { font-size: 1.6rem; margin: 0; }
  .eyebrow { margin: 0; font-size: .8rem; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); }
  .label { margin: 0; color: var(--muted); }
  .facts { display: grid; grid-template-columns: 1fr auto; gap: 12px; align-items: end; border-top: 1px solid var(--line);
           border-bottom: 1px solid var(--line); padding: 12px 0; }
  .k { display: block; font-size: .85rem; color: var(--muted); font-weight: 600; margin: 0 0 4px; }
  .name { font-size: 1.6rem; font-weight: 700; letter-spacing: .04em; }
  .timer { text-align: right; }
  .timer strong { font-size: 1.9rem; font-variant-numeric: tabular-nums; }
  .fingers { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 8px; }
  .fingers button { font: inherit; font-weight: 600; border: 2px solid var(--line); background: #fff; border-radius: 14px; padding: 8px 16px;
                    min-height: 56px; cursor: pointer; color: var(--ink); text-align: left; }
  .fingers button:disabled { cursor: default; opacity: .7; }
  .fingers button[aria-pressed="true"] { border-color: var(--info); background: #e8f0fb; font-weight: 600; }
  .none { color: var(--muted); margin: 0; }
  .status { border-radius: 10px; padding: 12px 14px; border: 2px solid; font-size: 1.2rem; }
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
  @media (max-height: 520px) { body { font-size: 16px; } main { padding: 10px 14px; gap: 8px; } .name { font-size: 1.3rem; } .timer strong { font-size: 1.5rem; }
    header .label, .fine { display: none; } }
  /* A wide frame (the station's area on a terminal): what to do on the left, the fingers on the right. */
  @media (min-width: 760px) {
    main { grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); grid-template-areas: 'head head' 'facts fingers' 'status fingers' 'actions fingers' 'fine fine';
           align-items: start; max-width: 1100px; }
    header { grid-area: head; } .facts { grid-area: facts; } .finger-list { grid-area: fingers; } #status { grid-area: status; }
    .actions { grid-area: actions; justify-content: flex-start; } .fine { grid-area: fine; }
    .fingers { flex-direction: column; }
  }
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

  var WORDS = JSON.parse(body.dataset.words || '{}');
  function say(key, n) {
    var en = String((WORDS.en || {})[key] || key), sw = String((WORDS.sw || {})[key] || '');
    return { en: en.replace('{n}', n), sw: sw.replace('{n}', n) };
  }
  function setStatus(kind, words, action) {
    $('status').className = 'status ' + kind;
    $('status-en').textContent = words.en;
    $('status-sw').textContent = words.sw;
    var button = $('action');
    if (action) { button.textContent = action.label.en + ' · ' + action.label.sw; button.hidden = false; button.onclick = action.run; }
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
  function withDetail(words, detail) {
    return detail ? { en: words.en + ' (' + detail + ')', sw: words.sw + ' (' + detail + ')' } : words;
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
      AUTHORIZED: 'authorized',
      AUTHORIZED_PENDING_VISIT: 'authorizedPendingVisit',
      REJECTED: reason === 'FINGERPRINT_NOT_MATCHED' ? 'rejectedMismatch' : 'rejected',
      EXPIRED: 'expired'
    };
    setStatus(TERMINAL[status] === 'ok' ? 'ok' : 'bad', texts[status] ? say(texts[status]) : { en: status, sw: status }, null);
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
    setStatus('warn', say('notRunning'), { label: say('retry'), run: checkDevice });
  }
  function checkDevice() {
    if (finished || busy) return;
    setStatus('info', say('checking'), null);
    fetchJson(deviceService + '/status', {}, 4000).then(function (r) {
      if (finished) return;
      if (!r.ok || !r.data) { notRunning(); return; }
      var devices = Array.isArray(r.data.devices) ? r.data.devices : [];
      var usable = devices.filter(function (d) { return d && !/disconnect|offline|error|unavailable/i.test(String(d.status || '')); });
      if (usable.length === 0) {
        setStatus('warn', say('noScanner'), { label: say('retry'), run: checkDevice });
        return;
      }
      capture();
    }, function () { if (!finished) notRunning(); });
  }
  function capture() {
    if (finished || busy) return;
    busy = true;
    setStatus('info', say('place'), null);
    var payload = { hint: { patient_id: session ? session.patient_id : body.dataset.patientId } };
    if (selectedFinger) payload.finger = selectedFinger;
    fetchJson(deviceService + '/capture', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }, 65000)
      .then(function (r) {
        if (finished) return null;
        if (!r.ok || !r.data || typeof r.data.template !== 'string') {
          setStatus('warn', withDetail(say('captureFailed'), messageOf(r.data)), { label: say('scanAgain'), run: capture });
          return null;
        }
        var sample = { template: r.data.template, deviceId: r.data.deviceId, protocol: r.data.protocol, templateBytes: r.data.templateBytes };
        return fetchJson(captureUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sample) }, 10000).then(function (sent) {
          if (sent.data && sent.data.session) applySession(sent.data.session);
          if (finished) return;
          if (sent.ok && sent.data) {
            if (!sent.data.matched) {
              var n = sent.data.attempts_left;
              setStatus('warn', say(n === 1 ? 'notMatchedOne' : 'notMatchedMany', n), { label: say('scanAgain'), run: capture });
            }
          } else {
            setStatus('warn', withDetail(say('notAccepted'), messageOf(sent.data)), { label: say('scanAgain'), run: capture });
            refresh();
          }
        });
      }, function () {
        if (!finished) setStatus('warn', say('stopped'), { label: say('retry'), run: checkDevice });
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
      ? `<p class="none">${both('noFingers')}</p>`
      : `<ul id="fingers" class="fingers" aria-labelledby="fingers-title">${s.fingers
          .map(
            (f) =>
              `<li><button type="button" data-finger="${escapeHtml(f.finger)}" aria-pressed="false"><span lang="en">${escapeHtml(f.label)}</span> <span lang="sw" class="sw">${escapeHtml(f.label_sw)}</span></button></li>`,
          )
          .join('')}</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Fingerprint consent · Ridhaa kwa alama ya kidole</title>
<style nonce="${input.nonce}">${STYLE}</style>
</head>
<body data-words="${escapeHtml(JSON.stringify(pageWords))}" data-session-url="${escapeHtml(input.sessionUrl)}" data-capture-url="${escapeHtml(input.captureUrl)}"
      data-device-service="${escapeHtml(s.device_service_url)}" data-patient-id="${escapeHtml(s.patient_id)}"
      data-expires-in-ms="${s.expires_in_ms}">
<main aria-labelledby="title">
  <header>
    <div>
      <p class="eyebrow">${escapeHtml(pageWords.en.eyebrow)}</p>
      <h1 id="title">${both('title')}</h1>
    </div>
    <p class="label" id="label">${escapeHtml(s.label)} &middot; ${escapeHtml(s.facility_name)}</p>
  </header>
  <section class="facts" aria-label="Request">
    <div><span class="k">${escapeHtml(pageWords.en.patient)} · ${escapeHtml(pageWords.sw.patient)}</span><span class="name" id="patient-name">${escapeHtml(s.patient_name)}</span></div>
    <div class="timer"><span class="k">${escapeHtml(pageWords.en.timeLeft)} · ${escapeHtml(pageWords.sw.timeLeft)}</span><strong id="time-left">${formatLeft(s.expires_in_ms)}</strong></div>
  </section>
  <section class="finger-list" aria-labelledby="fingers-title">
    <h2 class="k" id="fingers-title">${both('fingers')}</h2>
    ${fingers}
  </section>
  <section id="status" class="status info" role="status" aria-live="polite"><p><span id="status-en" lang="en">${escapeHtml(pageWords.en.loading)}</span> <span id="status-sw" lang="sw" class="sw">${escapeHtml(pageWords.sw.loading)}</span></p></section>
  <div class="actions"><button id="action" type="button" hidden>${escapeHtml(pageWords.en.retry)}</button></div>
  <p class="fine">${both('fine')}</p>
</main>
<script nonce="${input.nonce}">${SCRIPT}</script>
</body>
</html>`;
}

export function renderErrorPage(nonce: string, message: WordKey): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fingerprint consent · Ridhaa kwa alama ya kidole</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1>${both('title')}</h1><section class="status bad" role="status"><p>${both(message)}</p></section></main></body></html>`;
}
