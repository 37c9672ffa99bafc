// The real ReaderFactory: which protocol answers on a candidate. Serial ports are tried with ZFM
// first (the commonest modules, default 57600 baud), then GT-521 (which always powers up at 9600);
// a CP2110 bridge carries a ZFM module. A failed attempt closes its port before the next one.
import { Gt521Reader } from '../drivers/gt521-reader';
import type { FingerprintReader, ReaderInfo } from '../drivers/reader';
import { ZfmReader } from '../drivers/zfm-reader';
import { openCp2110Transport } from '../transports/hid-cp2110/transport';
import { SerialTransport } from '../transports/serial';
import type { ByteTransport } from '../transports/transport';
import type { ReaderCandidate } from './candidates';
import type { ReaderFactory } from './manager';

export interface ReaderFactoryOptions {
  /** ZFM rates to try on serial ports, in order. Default [57600], the factory setting. */
  readonly zfmBaudRates?: readonly number[];
  /** Try GT-521 on serial ports after ZFM. Default true. */
  readonly gt521?: boolean;
  /** The UART rate behind a CP2110. Default 57600. */
  readonly cp2110BaudRate?: number;
  readonly openSerial?: (path: string, baudRate: number) => Promise<ByteTransport>;
  readonly openHid?: (path: string, baudRate: number) => Promise<ByteTransport>;
}

export class NoReaderAnsweredError extends Error {
  override readonly name = 'NoReaderAnsweredError';
}

export function createReaderFactory(options: ReaderFactoryOptions = {}): ReaderFactory {
  const openSerial = options.openSerial ?? ((path, baudRate) => SerialTransport.open(path, { baudRate }));
  const openHid = options.openHid ?? ((path, baudRate) => openCp2110Transport(path, { uart: { baudRate } }));
  const zfmRates = options.zfmBaudRates ?? [57_600];
  const cp2110Rate = options.cp2110BaudRate ?? 57_600;

  return async (candidate: ReaderCandidate) => {
    const attempts: { label: string; open: () => Promise<ByteTransport>; reader: (t: ByteTransport) => FingerprintReader }[] = [];
    if (candidate.transport === 'hid-cp2110') {
      attempts.push({ label: `ZFM at ${cp2110Rate} baud`, open: () => openHid(candidate.path, cp2110Rate), reader: (t) => new ZfmReader(t) });
    } else {
      for (const rate of zfmRates) {
        attempts.push({ label: `ZFM at ${rate} baud`, open: () => openSerial(candidate.path, rate), reader: (t) => new ZfmReader(t) });
      }
      if (options.gt521 ?? true) {
        attempts.push({ label: 'GT-521 from 9600 baud', open: () => openSerial(candidate.path, 9600), reader: (t) => new Gt521Reader(t) });
      }
    }
    const failures: string[] = [];
    for (const attempt of attempts) {
      let transport: ByteTransport;
      try {
        transport = await attempt.open();
      } catch (error) {
        // The port itself cannot be opened (in use, gone, no permission): no other protocol will fare better.
        throw new NoReaderAnsweredError(`${candidate.path}: ${describe(error)}`);
      }
      const reader = attempt.reader(transport);
      try {
        const info: ReaderInfo = await reader.probe();
        return { reader, info };
      } catch (error) {
        failures.push(`${attempt.label}: ${describe(error)}`);
        await reader.close().catch(() => undefined);
      }
    }
    throw new NoReaderAnsweredError(`No fingerprint module answered on ${candidate.path} (${failures.join('; ')})`);
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
