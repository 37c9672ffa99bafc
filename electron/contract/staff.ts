// Who may do what at a station. Ward staff sign in with a short personal PIN (or badge number) for
// their shift; an administrator (the facility's IT officer) also provisions the exchange, its
// credentials, the link origins and training mode. Staff come from the provisioning file, from the
// launcher (station:web --staff), from an administrator at the station, and in training mode the
// demo "Training nurse". PINs go in once and never come back out: the core keeps salted slow hashes.
import { z } from 'zod';
import { noInput, shortText } from './common';

export const staffRole = z.enum(['nurse', 'administrator']);

/** A PIN or a badge number as it is typed to sign in: 4 to 20 letters or digits (PINs set before the 6-character rule keep working). */
export const staffPin = z.string().regex(/^[A-Za-z0-9]{4,20}$/, 'must be 4 to 20 letters or digits');

/** Fewest characters of a PIN set from now on. */
export const NEW_PIN_MIN_LENGTH = 6;

/** A PIN being set (a new staff member, a new PIN, the first administrator): 6 to 20 letters or digits. */
export const newStaffPin = z.string().regex(/^[A-Za-z0-9]{6,20}$/, `must be ${NEW_PIN_MIN_LENGTH} to 20 letters or digits`);

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
  /**
   * Whether her PIN is shorter than the 6 characters new PINs need: `short` (it works until it is
   * changed), `ok`, or `unknown` (a hash from before the rule or from the provisioning file: learned
   * at her next sign-in). Never the PIN or its length.
   */
  pin: z.enum(['ok', 'short', 'unknown']),
});

/**
 * The signed-in administrator's own PIN, asked again before she makes or changes an administrator:
 * an administrator who stepped away from an open station does not hand it over.
 */
const administratorPin = staffPin;

export const staffCommands = {
  /** An administrator signed in now. */
  'staff.list': { input: noInput, output: z.strictObject({ items: z.array(staffMember) }) },
  /**
   * An administrator signed in now; adding an administrator also takes her own PIN again
   * (`administratorPin`). A PIN another staff member already has is refused (a PIN alone names who
   * signs in), and counts as a wrong PIN towards the five-tries lockout: it told whether a guess is
   * somebody's PIN. (The first administrator of a station is made by station.setUpAdministrator.)
   */
  'staff.add': {
    input: z.strictObject({
      name: shortText,
      role: staffRole,
      pin: newStaffPin,
      nationalId: z.string().regex(/^[0-9]{5,12}$/, 'must be 5 to 12 digits').optional(),
      administratorPin: administratorPin.optional(),
    }),
    output: staffMember,
  },
  /**
   * A new PIN for a staff member added at this station, set by an administrator signed in now (her
   * own PIN again when the member is an administrator); the same rules as staff.add.
   */
  'staff.setPin': {
    input: z.strictObject({ staffRef, pin: newStaffPin, administratorPin: administratorPin.optional() }),
    output: z.strictObject({ items: z.array(staffMember) }),
  },
  /** An administrator signed in now; a provisioned staff member stays until the provisioning changes. */
  'staff.remove': { input: z.strictObject({ staffRef }), output: z.strictObject({ items: z.array(staffMember) }) },
};
