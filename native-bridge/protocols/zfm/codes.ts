// Confirmation codes: the first content byte of every ZFM acknowledge packet. One table for the
// whole family (ZFM-20, R30x, R503, AS608); where vendors give a code different meanings, the
// message names both. Sources: ZFM-20 manual §5, R503 manual v1.4.1, AS608 driver sources.

import { hex } from '../hex';

export interface ZfmCodeInfo {
  readonly name: string;
  readonly message: string;
}

const table: ReadonlyArray<readonly [number, string, string]> = [
  [0x00, 'ok', 'command complete'],
  [0x01, 'packet-receive-error', 'the module reported an error receiving the packet'],
  [0x02, 'no-finger', 'no finger on the sensor'],
  [0x03, 'image-capture-failed', 'failed to capture the fingerprint image'],
  [0x04, 'image-too-dry', 'the fingerprint image is too dry or faint to extract features'],
  [0x05, 'image-too-wet', 'the fingerprint image is too wet or blurry to extract features'],
  [0x06, 'image-too-messy', 'the fingerprint image is too disorderly to extract features'],
  [0x07, 'too-few-features', 'too few feature points (or too small an area), or poor image quality'],
  [0x08, 'no-match', 'the fingerprints do not match'],
  [0x09, 'not-found', 'no matching fingerprint found in the library'],
  [0x0a, 'merge-failed', 'failed to combine the character files into a template'],
  [0x0b, 'page-out-of-range', 'the page ID is beyond the library'],
  [0x0c, 'template-invalid', 'error reading the template from the library, or the template is invalid'],
  [0x0d, 'upload-feature-failed', 'failed to upload the feature or template'],
  [0x0e, 'cannot-receive-data', 'the module cannot receive the following data packets'],
  [0x0f, 'upload-image-failed', 'failed to upload the image, or cannot receive the following data packet'],
  [0x10, 'delete-failed', 'failed to delete the template'],
  [0x11, 'clear-library-failed', 'failed to clear the fingerprint library'],
  [0x12, 'low-power-failed', 'cannot enter the low-power state'],
  [0x13, 'wrong-password', 'wrong password'],
  [0x14, 'reset-failed', 'system reset failed'],
  [0x15, 'no-valid-image', 'no valid primary image in the image buffer'],
  [0x16, 'upgrade-failed', 'online upgrade failed'],
  [0x17, 'residual-finger', 'residual fingerprint, or the finger was not moved between captures'],
  [0x18, 'flash-error', 'error reading or writing flash'],
  [0x19, 'undefined-error', 'undefined error'],
  [0x1a, 'invalid-register', 'invalid register number'],
  [0x1b, 'bad-register-value', 'incorrect register configuration'],
  [0x1c, 'bad-notepad-page', 'wrong notepad page number'],
  [0x1d, 'port-operation-failed', 'communication port operation failed'],
  [0x1e, 'auto-enroll-failed', 'automatic enrolment failed'],
  [0x1f, 'library-full', 'the fingerprint library is full'],
  [0x20, 'address-error', 'address code error'],
  [0x21, 'password-required', 'the password must be verified first'],
  [0x22, 'template-empty', 'the template is empty'],
  [0x24, 'library-empty', 'the fingerprint library is empty'],
  [0x26, 'timeout', 'the module timed out'],
  [0x27, 'already-exists', 'the fingerprint already exists in the library'],
  [0x28, 'feature-correlated', 'the feature is correlated with a previous one in this enrolment'],
  [0x29, 'sensor-error', 'sensor hardware error'],
  [0xf0, 'data-follows-ok', 'command with following data packets: data received correctly'],
  [0xf1, 'data-follows', 'command with following data packets: command packet accepted'],
  [0xf2, 'flash-burn-checksum', 'checksum error while burning internal flash'],
  [0xf3, 'flash-burn-pid', 'packet identifier error while burning internal flash'],
  [0xf4, 'flash-burn-length', 'packet length error while burning internal flash'],
  [0xf5, 'flash-burn-code-too-long', 'code too long while burning internal flash'],
  [0xf6, 'flash-burn-failed', 'burning internal flash failed'],
  [0xfc, 'unsupported-command', 'the module does not support this command'],
  [0xfd, 'hardware-error', 'hardware error'],
  [0xfe, 'execution-failed', 'command execution failed'],
];

export const ZFM_CONFIRMATION_CODES: ReadonlyMap<number, ZfmCodeInfo> = new Map(
  table.map(([code, name, message]) => [code, { name, message }]),
);

/** GetEcho (0x53) answers with this code instead of 0x00. */
export const ZFM_ECHO_OK = 0x55;

export function describeZfmCode(code: number): ZfmCodeInfo {
  return ZFM_CONFIRMATION_CODES.get(code) ?? { name: 'unknown', message: `unknown confirmation code 0x${hex(code, 2)}` };
}
