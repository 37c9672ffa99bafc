// Enrolled-finger templates of the demo patients: 512 bytes each, derived from the patient's CR
// id and the finger with SHA-256, so any component (the virtual reader, tests) can reproduce them
// and matching is a byte comparison.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DemoPatient, Finger } from './patients';

export const TEMPLATE_BYTES = 512;

export function enrolledTemplate(crId: string, finger: Finger): Buffer {
  const blocks: Buffer[] = [];
  for (let block = 0; block < TEMPLATE_BYTES / 32; block++) {
    blocks.push(createHash('sha256').update(`idhini-sandbox-template|${crId}|${finger}|${block}`).digest());
  }
  return Buffer.concat(blocks);
}

export function enrolledFingers(patient: DemoPatient): { finger: Finger; template: string }[] {
  return patient.fingers.map((finger) => ({ finger, template: enrolledTemplate(patient.crId, finger).toString('base64') }));
}

/** The finger whose enrolled template equals `template` byte for byte, or null. */
export function matchFinger(patient: DemoPatient, template: Buffer): Finger | null {
  if (template.length !== TEMPLATE_BYTES) return null;
  for (const finger of patient.fingers) {
    if (timingSafeEqual(enrolledTemplate(patient.crId, finger), template)) return finger;
  }
  return null;
}
