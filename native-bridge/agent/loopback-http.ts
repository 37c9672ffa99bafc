// A small GET-JSON over node:http/https. The hardware service on the workstation presents a
// self-signed certificate; that is accepted only when the host is this machine (loopback), where
// a certificate proves nothing anyway. Anywhere else the normal TLS checks apply.
import http from 'node:http';
import https from 'node:https';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(host) || /^127(\.\d{1,3}){3}$/.test(host) || host.endsWith('.localhost');
}

/** TLS options for a URL: self-signed certificates are accepted for loopback hosts only. */
export function tlsOptionsFor(url: URL): { rejectUnauthorized: boolean } {
  return { rejectUnauthorized: !(url.protocol === 'https:' || url.protocol === 'wss:') || !isLoopbackHost(url.hostname) };
}

export class HttpGetError extends Error {
  override readonly name = 'HttpGetError';
}

export function getJson(url: URL, timeoutMs: number): Promise<unknown> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      { timeout: timeoutMs, headers: { accept: 'application/json' }, ...tlsOptionsFor(url) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => reject(new HttpGetError(`${url.href}: ${error.message}`)));
        response.on('end', () => {
          clearTimeout(deadline);
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            reject(new HttpGetError(`${url.href} answered HTTP ${status}`));
            return;
          }
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new HttpGetError(`${url.href} answered something that is not JSON`));
          }
        });
      },
    );
    // `timeout` only covers socket inactivity; this bounds the whole exchange.
    const deadline = setTimeout(() => request.destroy(new HttpGetError(`${url.href} did not answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('timeout', () => request.destroy(new HttpGetError(`${url.href} did not answer within ${timeoutMs} ms`)));
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error instanceof HttpGetError ? error : new HttpGetError(`${url.href}: ${describeNetworkError(error)}`));
    });
  });
}

function describeNetworkError(error: Error & { code?: string }): string {
  if (error.code === 'ECONNREFUSED') return 'nothing listens there (connection refused)';
  if (error.code === 'ECONNRESET') return 'the connection was reset';
  return error.code ? `${error.code} ${error.message}` : error.message;
}
