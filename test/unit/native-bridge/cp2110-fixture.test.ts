import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FIXTURE_FILES,
  ZFM_EXCHANGE,
  ioctlDescription,
  scriptDescription,
  scriptEscape,
  umockdevDescription,
} from '../../fixtures/umockdev/cp2110';

describe('the umockdev CP2110 fixture', () => {
  it('is what its generator writes (regenerate with npx tsx test/fixtures/umockdev/cp2110.ts)', () => {
    expect(readFileSync(FIXTURE_FILES.umockdev, 'utf8')).toBe(umockdevDescription());
    expect(readFileSync(FIXTURE_FILES.ioctl, 'utf8')).toBe(ioctlDescription());
    expect(readFileSync(FIXTURE_FILES.script).equals(scriptDescription())).toBe(true);
  });

  it('carries the published ZFM test vectors', () => {
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();
    expect(hex(ZFM_EXCHANGE.vfyPwd)).toBe('EF01' + 'FFFFFFFF' + '01' + '0007' + '13' + '00000000' + '001B');
    expect(hex(ZFM_EXCHANGE.readSysPara)).toBe('EF01' + 'FFFFFFFF' + '01' + '0003' + '0F' + '0013');
    expect(hex(ZFM_EXCHANGE.vfyPwdAck)).toBe('EF01' + 'FFFFFFFF' + '07' + '0003' + '00' + '000A');
  });

  it("escapes bytes the way umockdev's script reader decodes them", () => {
    expect(scriptEscape(Uint8Array.of(0x00, 0x0a, 0x1f, 0x5e, 0x41, 0xff))).toBe('^@^J^_^`A\xff');
    expect(() => scriptEscape(Uint8Array.of(0x20, 0x01))).toThrow(/leading space/);
  });
});
