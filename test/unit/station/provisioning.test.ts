// The provisioning file: where the installer drops it on each system, what it may hold, and a clear
// refusal of one that is wrong.
import { describe, expect, it } from 'vitest';
import { ProvisioningError, provisioningFilePath, readProvisioningFile } from '../../../electron/station/provisioning';

const hash = 'scrypt$16384$8$1$zxhHAVWOW-YWzUy2fbs78A$yup-CMC127-BmqDKbm7woK0q-LuYrHuDctvRisp4grU';
const read = (json: unknown) => () => JSON.stringify(json);

describe('the provisioning file', () => {
  it('lives where only administrators write, on every system', () => {
    expect(provisioningFilePath('win32', { ProgramData: 'D:\\ProgramData' })).toBe('D:\\ProgramData\\Idhini\\provisioning.json');
    expect(provisioningFilePath('win32', {})).toBe('C:\\ProgramData\\Idhini\\provisioning.json');
    expect(provisioningFilePath('linux', {})).toBe('/etc/idhini/provisioning.json');
    expect(provisioningFilePath('darwin', {})).toBe('/Library/Application Support/Idhini/provisioning.json');
  });

  it('fixes the settings it names and provisions staff by PIN hash', () => {
    const file = readProvisioningFile('p.json', read({ version: 1, exchangeBaseUrl: 'https://x.example.org', allowedLinkOrigins: ['https://portal.example.org'], staff: [{ name: 'IT officer', role: 'administrator', pinHash: hash }] }));
    expect(file).toEqual({ source: 'file', settings: { exchangeBaseUrl: 'https://x.example.org', allowedLinkOrigins: ['https://portal.example.org'] }, staff: [{ name: 'IT officer', role: 'administrator', pinHash: hash }] });
  });

  it('is optional: no file, no provisioning', () => {
    expect(readProvisioningFile('p.json', () => { throw Object.assign(new Error('gone'), { code: 'ENOENT' }); })).toBeNull();
  });

  it.each([
    [{ version: 1, clientSecret: 'x' }, /clientSecret|not valid/],
    [{ version: 2 }, /version/],
    [{ version: 1, exchangeBaseUrl: 'http://x.example.org' }, /https/],
    [{ version: 1, exchangeBaseUrl: 'http://127.0.0.1:8080' }, /https/],
    [{ version: 1, staff: [{ name: 'A', role: 'nurse', pinHash: '1234' }] }, /staff\.0\.pinHash/],
  ])('refuses %j, saying what is wrong', (json, message) => {
    expect(() => readProvisioningFile('p.json', read(json))).toThrow(ProvisioningError);
    expect(() => readProvisioningFile('p.json', read(json))).toThrow(message);
  });

  it('refuses a file that is not JSON', () => {
    expect(() => readProvisioningFile('p.json', () => '{ nope')).toThrow(/not valid JSON/);
  });
});
