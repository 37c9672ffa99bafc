/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// A facility's callback receiver for the sandbox's status callbacks: a real HTTP endpoint that can
// fail its first deliveries, and the registration of an endpoint (and its operation) in R's shapes.
// Shared by callbacks.test.ts and the retry waits measured in callbacks-retry.timing.test.ts.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import { HOSPITAL, type Client, type Harness } from './harness';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
}

/** A receiver that fails the first `failures` deliveries with 500, then answers 204. */
export class Receiver {
  readonly received: Received[] = [];
  failures = 0;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) });
        if (this.failures > 0) {
          this.failures -= 1;
          res.writeHead(500).end('not now');
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export type EntityType = 'claim' | 'preauth' | 'authorization';

/**
 * A fresh receiver for each test of the calling file, and how a test registers it for one entity
 * type (one endpoint per type per facility) with, by default, its operation.
 */
export function useReceiver(h: Harness): { readonly receiver: Receiver; register(entityType: EntityType, client?: Client, code?: string, withOperation?: boolean): Promise<{ endpoint_id: string; base_url: string; signing_secret: string }> } {
  let receiver: Receiver | undefined;
  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(async () => {
    await receiver?.stop();
  });
  const current = (): Receiver => {
    if (receiver === undefined) throw new Error('the receiver starts before each test');
    return receiver;
  };
  /** Registers an endpoint for one entity type (one per type per facility) and, by default, its operation. */
  const register = async (entityType: EntityType, client: Client = h.hospital, code: string = HOSPITAL.code, withOperation = true) => {
    const endpoint = await client.post(`/api/v1/tenants/${code}/endpoints`, {
      name: `ward station ${entityType}`,
      base_url: current().url,
      entity_type: entityType,
      environment: 'sandbox',
      auth_type: 'none',
      headers: { 'x-station': 'ward-3' },
    });
    expect(endpoint.status).toBe(201);
    if (withOperation) {
      const op = await client.post(`/api/v1/tenants/${code}/endpoints/${endpoint.body.endpoint_id}/operations`, {
        name: 'status',
        action: 'status_changed',
        method: 'POST',
        path: '/hooks/exchange',
        request_content_type: 'application/json',
      });
      expect(op.status).toBe(201);
      expect(op.body).toMatchObject({ operation_id: expect.any(String), path: '/hooks/exchange', is_active: true });
    }
    return endpoint.body as { endpoint_id: string; base_url: string; signing_secret: string };
  };
  return {
    get receiver() {
      return current();
    },
    register,
  };
}
