// Choosing the port: the exchange's own hardware service owns localhost:18065 where it runs. On
// Windows a second process can bind 127.0.0.1:18065 even while the service holds 0.0.0.0:18065
// (no SO_EXCLUSIVEADDRUSE), and would then steal its traffic; so before binding, the port is
// tried as a client too: anything that accepts a connection there means "not free".
import net from 'node:net';

export const HARDWARE_SERVICE_PORT = 18065;

/** Whether something accepts TCP connections on the loopback port (IPv4 or IPv6). */
export async function somethingListens(port: number, timeoutMs = 500): Promise<boolean> {
  const attempts = ['127.0.0.1', '::1'].map(
    (host) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect({ host, port });
        const done = (answer: boolean) => {
          clearTimeout(timer);
          socket.destroy();
          resolve(answer);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        socket.once('connect', () => done(true));
        socket.once('error', () => done(false));
      }),
  );
  return (await Promise.all(attempts)).some(Boolean);
}

export class PortUnavailableError extends Error {
  override readonly name = 'PortUnavailableError';
}
