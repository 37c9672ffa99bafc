// Who may do what at a station. Ward staff sign in with a short personal PIN (or badge number) for
// their shift; an administrator (the facility's IT officer) also provisions the exchange, its
// credentials, the link origins and training mode. Staff come from the provisioning file, from the
// launcher (station:web --staff), from an administrator at the station, and in training mode the
// demo "Training nurse". PINs go in once and never come back out: the core keeps salted slow hashes.
import { z } from 'zod';
import { noInput, shortText } from './common';

export const staffRole = z.enum(['nurse', 'administrator']);

/** A PIN or a badge number: 4 to 20 letters or digits. */
export const staffPin = z.string().regex(/^[A-Za-z0-9]{4,20}$/, 'must be 4 to 20 letters or digits');

const staffRef = z.string().regex(/^st_[A-Za-z0-9_-]{6,64}$/, 'must be a station st_ handle');

export const signedInStaff = z.strictObject({ staffRef, name: shortText, role: staffRole });

export const staffMember = z.strictObject({
  staffRef,
  name: shortText,
  role: staffRole,
  /** Whether her national ID is known (sent as request_user_national_id when she opens a visit); the number itself stays in the core. */
  nationalIdKnown: z.boolean(),
  /** Where she was provisioned: only those added at the station can be removed here. */
  source: z.enum(['station', 'provisioned', 'training']),
});

export const staffCommands = {
  /** Administrator only. */
  'staff.list': { input: noInput, output: z.strictObject({ items: z.array(staffMember) }) },
  /**
   * Administrator only, except the very first administrator of a station that has none and is not in
   * training mode. A PIN another staff member already has is refused (a PIN alone names who signs in).
   */
  'staff.add': {
    input: z.strictObject({
      name: shortText,
      role: staffRole,
      pin: staffPin,
      nationalId: z.string().regex(/^[0-9]{5,12}$/, 'must be 5 to 12 digits').optional(),
    }),
    output: staffMember,
  },
  /** Administrator only; a provisioned staff member stays until the provisioning changes. */
  'staff.remove': { input: z.strictObject({ staffRef }), output: z.strictObject({ items: z.array(staffMember) }) },
};
