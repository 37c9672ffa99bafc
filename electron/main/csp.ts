// The Content-Security-Policy of the renderer in the Electron shell, sent by the app:// handler with
// every response. Scripts, styles and everything else come only from the app's own origin; nothing
// may frame the renderer or be framed by it (the authorization link is a separate view, not an
// iframe); the renderer talks to the station only through the preload, so no connect-src beyond self.
export const rendererCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "frame-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every app:// response carries besides its content type. */
export const rendererSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': rendererCsp,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
