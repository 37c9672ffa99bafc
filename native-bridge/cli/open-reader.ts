// Opens the reader a CLI command names: --port, --protocol zfm|gt521, --baud.

import { CliUsageError, optionalInteger, requiredString, type CliOptions, type CliValues } from './command';
import { Gt521Reader } from '../drivers/gt521-reader';
import { ZfmReader } from '../drivers/zfm-reader';
import { GT521_BAUD_RATES, GT521_POWER_ON_BAUD } from '../protocols/gt521';
import { SerialTransport } from '../transports/serial';

export const readerOptions: CliOptions = {
  port: { type: 'string' },
  protocol: { type: 'string' },
  baud: { type: 'string' },
};

export const readerUsage = '--port PATH --protocol zfm|gt521 [--baud B]';

/** ZFM modules ship at 57600 (9600 × 6). */
const ZFM_DEFAULT_BAUD = 57600;
/** The rate a GT-521 is switched to after its 9600 power-on rate. */
const GT521_DEFAULT_BAUD = 115200;

export interface OpenedReader {
  readonly reader: ZfmReader | Gt521Reader;
  readonly transport: SerialTransport;
}

export async function openReader(values: CliValues): Promise<OpenedReader> {
  const port = requiredString(values, 'port');
  const protocol = requiredString(values, 'protocol');
  const baud = optionalInteger(values, 'baud', 1200, 921600);
  if (protocol === 'zfm') {
    if (baud !== undefined && baud % 9600 !== 0) throw new CliUsageError(`--baud for zfm must be 9600 × N, got ${baud}`);
    const transport = await SerialTransport.open(port, { baudRate: baud ?? ZFM_DEFAULT_BAUD });
    return { reader: new ZfmReader(transport), transport };
  }
  if (protocol === 'gt521') {
    // --baud is the working rate: the module always powers up at 9600, and the probe switches it.
    if (baud !== undefined && !(GT521_BAUD_RATES as readonly number[]).includes(baud)) {
      throw new CliUsageError(`--baud for gt521 must be one of ${GT521_BAUD_RATES.join(', ')}, got ${baud}`);
    }
    const transport = await SerialTransport.open(port, { baudRate: GT521_POWER_ON_BAUD });
    return { reader: new Gt521Reader(transport, { baudRate: baud ?? GT521_DEFAULT_BAUD }), transport };
  }
  throw new CliUsageError(`--protocol must be zfm or gt521, got '${protocol}'`);
}
