// readers.*: the fingerprint readers, the hardware service and the station's device service.
import { defineCommands, type StationServices } from './services';

export const readerCommands = (s: StationServices) =>
  defineCommands({
    'readers.state': async (input) => (input.refresh === true ? s.readers.refresh() : s.readers.snapshot()),
    'readers.list': async () => ({ items: (await s.readers.list()).slice(0, 100) }),
    'readers.cancelCapture': async () => {
      const snapshot = await s.readers.cancelCapture();
      s.ctx.engine.audit({ action: 'readers.cancelCapture', outcome: 'succeeded', summary: 'a page’s capture request was declined' });
      return snapshot;
    },
  });
