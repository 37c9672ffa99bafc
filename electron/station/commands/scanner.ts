// scanner.*: the scanner's folder the administrator set, listed afresh on every call, and one listed
// file read for the picker's checks. Neither writes; a read is audited without the file's name
// (scans are often named after the patient).
import { listScans, readScan } from '../scanner-folder';
import { defineCommands, type StationServices } from './services';

export const scannerCommands = (s: StationServices) =>
  defineCommands({
    'scanner.list': async () => {
      const c = s.ctx;
      return listScans(c.settings.values.scannerFolder, c.nowIso());
    },
    'scanner.read': async (input) => {
      const c = s.ctx;
      const file = await readScan(c.settings.values.scannerFolder, input.name);
      c.engine.audit({ action: 'scanner.read', outcome: 'succeeded', summary: `a ${file.contentType} of ${file.bytes.length} bytes read from the scanner’s folder` });
      return { name: file.name, size: file.bytes.length, dataBase64: file.bytes.toString('base64') };
    },
  });
