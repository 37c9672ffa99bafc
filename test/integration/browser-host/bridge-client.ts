// A WebSocket client of the browser host's /bridge, speaking docs/bridge-protocol.md as the renderer
// does, recording every frame it sends and receives.
import WebSocket from 'ws';

export interface BridgeClient {
  readonly sent: string[];
  readonly received: string[];
  invoke(name: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>;
  close(): void;
}

/** Connects to http://127.0.0.1:N (the host's URL), says hello with the secret, waits for ready. */
export async function connectBridge(hostUrl: string, secret: string): Promise<BridgeClient> {
  const ws = new WebSocket(`${hostUrl.replace(/^http/, 'ws')}/bridge`, { origin: hostUrl });
  const sent: string[] = [];
  const received: string[] = [];
  const waiting = new Map<number, (outcome: never) => void>();
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  ws.on('message', (data) => {
    const text = data.toString();
    received.push(text);
    const frame = JSON.parse(text) as { type: string; id?: number; outcome?: never };
    if (frame.type === 'ready') ready();
    if (frame.type === 'result' && frame.id !== undefined) {
      waiting.get(frame.id)?.(frame.outcome as never);
      waiting.delete(frame.id);
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const send = (frame: unknown) => {
    const text = JSON.stringify(frame);
    sent.push(text);
    ws.send(text);
  };
  send({ type: 'hello', secret });
  await isReady;
  let nextId = 1;
  return {
    sent,
    received,
    invoke(name, input) {
      const id = nextId++;
      const answer = new Promise<never>((resolve) => waiting.set(id, resolve));
      send({ type: 'invoke', id, name, input });
      return answer;
    },
    close: () => ws.close(),
  };
}

/** The secret from a launch URL's fragment (#k=…). */
export function secretOf(launchUrl: string): string {
  const match = /#k=([^&]+)$/.exec(launchUrl);
  if (match?.[1] === undefined) throw new Error(`no secret in ${launchUrl}`);
  return match[1];
}
