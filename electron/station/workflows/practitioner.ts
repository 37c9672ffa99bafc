// The attending doctor as the exchange's preauth, emergency and doctor-consent requests name them:
// only the identification types and regulators the portal lists, checked here so the nurse hears
// which field to correct before anything is sent.
import { practitionerIdentificationTypes, regulationBodies } from '../../vocabulary';
import { fail } from '../errors';
import type { AttendingDoctor } from './types';

type IdentificationType = (typeof practitionerIdentificationTypes)[number];
type RegulationBody = (typeof regulationBodies)[number];

/** The wire's spelling of a type as a screen may write it ("Registration Number" is registration_number). */
export function wireIdentificationType(value: string): IdentificationType | undefined {
  const plain = value.trim().toLowerCase().replace(/[\s_]+/g, ' ');
  return practitionerIdentificationTypes.find((type) => type.toLowerCase().replace(/_/g, ' ') === plain);
}

const isRegulationBody = (value: string): value is RegulationBody => (regulationBodies as readonly string[]).includes(value);

export interface ListedDoctor {
  readonly identification_number: string;
  readonly identification_type: IdentificationType;
  readonly regulation_body: RegulationBody;
}

/** The doctor's three wire fields, or VALIDATION naming the field (`doctor.identificationType`). */
export function listedDoctor(doctor: AttendingDoctor): ListedDoctor {
  const type = wireIdentificationType(doctor.identificationType);
  if (type === undefined) fail('VALIDATION', `The doctor's identification type must be one of ${practitionerIdentificationTypes.join(', ')}.`, { field: 'doctor.identificationType' });
  const regulator = doctor.regulationBody.toUpperCase();
  if (!isRegulationBody(regulator)) fail('VALIDATION', `The doctor's regulator must be one of ${regulationBodies.join(', ')}.`, { field: 'doctor.regulationBody' });
  return { identification_number: doctor.identificationNumber, identification_type: type, regulation_body: regulator };
}
