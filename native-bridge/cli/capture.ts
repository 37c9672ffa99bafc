// `reader capture`: waits for a finger and prints its template (base64 of the bytes as read).

import { optionalInteger, type CliCommand } from './command';
import { openReader, readerOptions, readerUsage } from './open-reader';

const DEFAULT_TIMEOUT_MS = 15_000;

export const captureCommand: CliCommand = {
  summary: 'wait for a finger and print its template',
  usage: `${readerUsage} [--timeout-ms T]`,
  options: { ...readerOptions, 'timeout-ms': { type: 'string' } },
  async run(values, signal) {
    const timeoutMs = optionalInteger(values, 'timeout-ms', 1, 600_000) ?? DEFAULT_TIMEOUT_MS;
    const { reader, transport } = await openReader(values);
    try {
      const capture = await reader.capture({ timeoutMs, signal });
      return {
        protocol: capture.protocol,
        template: Buffer.from(capture.template).toString('base64'),
        templateBytes: capture.templateBytes,
        port: transport.path,
        baudRate: transport.baudRate,
        capturedAt: capture.capturedAt,
        durationMs: capture.durationMs,
      };
    } finally {
      await reader.close();
    }
  },
};
