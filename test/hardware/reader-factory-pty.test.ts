// The manager's reader factory on real serial ports: a GT-521 module does not answer ZFM's VfyPwd,
// so the factory closes that attempt (the port is locked while open: the GT-521 attempt could not
// open it otherwise) and finds the module with the GT-521 probe from 9600 baud.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatedDevice, type EmulatedDevice } from '../../native-bridge/emulators/harness';
import { serialCandidate } from '../../native-bridge/manager/candidates';
import { createReaderFactory, NoReaderAnsweredError } from '../../native-bridge/manager/reader-factory';

describe('the reader factory over PTYs', () => {
  let gt521: EmulatedDevice;

  beforeAll(async () => {
    gt521 = await startEmulatedDevice({ protocol: 'gt521' });
  });
  afterAll(async () => {
    await gt521?.stop();
  });

  it('tries ZFM first, then finds a GT-521 from 9600 baud', async () => {
    const candidate = serialCandidate({ path: gt521.hostPath, vendorId: '1a86', productId: '7523' }, []);
    const { reader, info } = await createReaderFactory()(candidate);
    try {
      expect(info).toMatchObject({ protocol: 'gt521', transport: 'serial', path: gt521.hostPath, baudRate: 115_200 });
      expect(reader.state.kind).toBe('idle');
    } finally {
      await reader.close();
    }
  });

  it('says what each protocol answered when none did', async () => {
    const candidate = serialCandidate({ path: gt521.hostPath }, []);
    const failure = await createReaderFactory({ gt521: false })(candidate).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NoReaderAnsweredError);
    expect((failure as Error).message).toMatch(new RegExp(`^No fingerprint module answered on ${gt521.hostPath} \\(ZFM at 57600 baud: .*VfyPwd`));
  });

  it('gives up at once on a port that cannot be opened', async () => {
    const missing = `${gt521.hostPath}-missing`;
    const candidate = serialCandidate({ path: missing }, []);
    const started = Date.now();
    const failure = await createReaderFactory()(candidate).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NoReaderAnsweredError);
    // The open's own failure, not a list of protocols that did not answer: no other was tried.
    expect((failure as Error).message).toMatch(new RegExp(`^${missing}: cannot open ${missing}`));
    // Trying the protocols in turn would wait out ZFM's VfyPwd and GT-521's Open at two rates (1 s each).
    expect(Date.now() - started).toBeLessThan(2500);
  });
});
