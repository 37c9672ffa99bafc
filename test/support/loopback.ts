// A test server on a free loopback port, closed with every connection it holds (keep-alive clients
// would otherwise hold close() until they time out): the stand-ins and proxies of this folder share it.
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackListener {
  /** http://127.0.0.1:port */
  readonly url: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<LoopbackListener> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
