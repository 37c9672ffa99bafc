// The station as a whole: which shell hosts it, whether the exchange answers, training mode, the
// optional native pieces that could not load (reported, never a crash), who is signed in, and the
// lock. While locked (idle, by hand, or nobody signed in yet) a station does nothing but let someone
// sign in: every command but the status and the sign-in (station.status, station.unlock,
// station.setUpAdministrator, and station.lock, which changes nothing then) answers LOCKED, whoever
// was signed in before, and only the lock's own events (station.*) are pushed. A staff member's PIN
// opens it — the same nurse's, or another's, which switches the user — and unlocking shows a fresh
// look-up screen.
import { z } from 'zod';
import { noInput, shortText, timestamp } from './common';
import { language } from './settings';
import { newStaffPin, signedInStaff, staffPin } from './staff';

/** Bumped when a change would break a renderer built against an older contract. */
export const contractVersion = 1;

export const stationStatus = z.strictObject({
  contractVersion: z.number().int().min(1),
  host: z.enum(['electron', 'browser']),
  appVersion: z.string().max(60),
  trainingMode: z.boolean(),
  signedIn: z.boolean(),
  facility: z.strictObject({ code: z.string().max(60), name: z.string().max(200) }).nullable(),
  exchange: z.strictObject({
    state: z.enum(['reachable', 'unreachable', 'unknown']),
    checkedAt: timestamp.nullable(),
    latencyMs: z.number().min(0).nullable(),
  }),
  /** Optional native pieces that failed to load (node-hid without libusb, say), with why. */
  unavailablePieces: z.array(z.strictObject({ piece: z.string().max(100), reason: z.string().max(500) })),
  locked: z.boolean(),
  /** Who works at the station now (kept while locked: the lock names her), or null before anyone signed in. */
  staff: signedInStaff.nullable(),
  /** Whether an administrator exists: the first one may be made on a station that has none and is not in training. */
  administratorExists: z.boolean(),
  /** The station's language (settings), for the lock screen's words: settings.get answers LOCKED while locked. */
  language,
  /** When the idle lock engages if nothing happens before. */
  lockAt: timestamp.nullable(),
  /**
   * The station's time when it answered. Deadlines in views are on this clock — in training mode
   * the sandbox's, which its clock control moves — so the renderer counts down from it, not from the
   * machine's. The core pushes station.statusChanged when its clock jumps.
   */
  now: timestamp,
  /**
   * Records the station could not read back and set aside — kept, not deleted, and audited
   * (`records.setAside`): work an earlier or a newer version wrote that this one cannot carry on,
   * or records sealed under a key it no longer has. The station works without them; the renderer
   * tells the nurse to call the IT officer, and the IT officer what they are.
   */
  setAside: z.strictObject({
    count: z.number().int().min(0),
    /** The first few, oldest first. */
    records: z
      .array(
        z.strictObject({
          /** A workflow, a looked-up patient, a setting, or something the station remembered (a memo). */
          source: z.enum(['workflow', 'patient', 'setting', 'memo']),
          /** The workflow's id, the patient's ref, the setting's or memo's name: never a secret. */
          key: z.string().max(100),
          /** The workflow's kind, when it is one. */
          kind: z.string().max(40).nullable(),
          /** Sealed under another key or altered; written by a newer Idhini; not what its version says. */
          reason: z.enum(['unreadable', 'newer', 'invalid']),
          foundAt: timestamp,
        }),
      )
      .max(20),
  }),
});

export const statusCommands = {
  'station.status': { input: noInput, output: stationStatus },
  'station.lock': { input: noInput, output: stationStatus },
  /** A staff member's PIN (or badge number): hers opens the station, another's switches the user. */
  'station.unlock': { input: z.strictObject({ pin: staffPin }), output: stationStatus },
  /**
   * The first administrator of a station that has none and is not in training: made with her PIN
   * and signed in, in one step (a sign-in, so it answers while locked). A PIN another staff member
   * has is refused as a wrong PIN, without saying why.
   */
  'station.setUpAdministrator': {
    input: z.strictObject({ name: shortText, pin: newStaffPin, nationalId: z.string().regex(/^[0-9]{5,12}$/, 'must be 5 to 12 digits').optional() }),
    output: stationStatus,
  },
  /** The nurse is using the screen (browser mode has no system idle time to read); pushes lockAt back. */
  'station.reportActivity': { input: noInput, output: stationStatus },
};

export const statusEvents = [
  z.strictObject({ type: z.literal('station.statusChanged'), status: stationStatus }),
  /** The renderer drops every patient detail it holds. */
  z.strictObject({ type: z.literal('station.locked'), reason: z.enum(['idle', 'manual', 'system']), at: timestamp }),
  z.strictObject({ type: z.literal('station.unlocked'), at: timestamp }),
] as const;

export type StationStatus = z.infer<typeof stationStatus>;
