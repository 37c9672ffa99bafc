// An exchange client of the demo hospital against a scripted exchange, one pair per test: the
// set-up the client's token and transport tests share.
import { afterEach } from 'vitest';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../../../electron/payer';
import { startScriptedExchange, type ScriptedExchange, type ScriptedExchangeOptions } from './scripted-exchange';

export type StartClient = (
  script: ScriptedExchangeOptions,
  options?: Partial<ExchangeClientOptions>,
) => Promise<{ exchange: ScriptedExchange; client: ExchangeClient }>;

/**
 * Registers, in the calling file, an afterEach that closes the client and the exchange the test
 * started, and returns how a test starts them: the exchange playing `script`, the client with the
 * demo hospital's credentials and `retry` (each overridden by `options`).
 */
export function useScriptedClient(retry: NonNullable<ExchangeClientOptions['retry']>): StartClient {
  let exchange: ScriptedExchange | undefined;
  let client: ExchangeClient | undefined;

  afterEach(async () => {
    await client?.close();
    await exchange?.close();
    client = undefined;
    exchange = undefined;
  });

  return async (script, options = {}) => {
    exchange = await startScriptedExchange(script);
    client = createExchangeClient({
      baseUrl: exchange.url,
      credentials: { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' },
      retry,
      ...options,
    });
    return { exchange, client };
  };
}
