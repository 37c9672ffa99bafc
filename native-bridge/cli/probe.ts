// `reader probe`: the handshake and what the module says about itself, as one object.

import type { CliCommand } from './command';
import { openReader, readerOptions, readerUsage } from './open-reader';

export const probeCommand: CliCommand = {
  summary: 'handshake with the module and print its device info',
  usage: readerUsage,
  options: readerOptions,
  async run(values, signal) {
    const { reader } = await openReader(values);
    try {
      const { id: _id, path, ...info } = await reader.probe({ signal });
      return { port: path, ...info };
    } finally {
      await reader.close();
    }
  },
};
