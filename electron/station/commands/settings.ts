// settings.*, facility.*: what the station works with, and the facility's sign-in. The
// administrator's settings need a signed-in administrator (access.ts); a provisioning file fixes
// what it names; a new exchange origin forgets the stored secret and signs out.
import { administratorChanges, TRAINING_FACILITY_KEYS } from '../access';
import { fail, toStationError } from '../errors';
import { exchangeUrlAllowed } from '../provisioning';
import { exchangeOriginOf } from '../settings';
import type { StaffMember } from '../staff';
import { defineCommands, type StationServices } from './services';

/**
 * The administrator signed in now: the station open (never whoever was signed in before a lock),
 * and her role as the staff list has it at this moment.
 */
export function requireAdministrator(s: StationServices, what: string, field?: string): StaffMember {
  const current = s.current();
  const member = s.lock.locked || current === null ? undefined : s.staff.get(current.ref);
  if (member?.role !== 'administrator') fail('ADMINISTRATOR_REQUIRED', `Only the station's administrator may ${what}.`, field === undefined ? undefined : { field });
  return member;
}

export const settingsCommands = (s: StationServices) =>
  defineCommands({
    'settings.get': async () => s.ctx.settings.view(),
    'settings.update': async (input) => {
      const c = s.ctx;
      const before = c.settings.values;
      const changed = administratorChanges(before, input);
      const fixed = changed.find((key) => c.settings.provisioned.includes(key));
      if (fixed !== undefined) fail('PROVISIONED', `${fixed} is fixed by this station's provisioning file.`, { field: fixed });
      const trainingAfter = input.trainingMode ?? before.trainingMode;
      // In training the demo facility may be chosen by whoever is signed in (the built-in sandbox, public credentials).
      const needsAdministrator = changed.filter((key) => !(before.trainingMode && trainingAfter && TRAINING_FACILITY_KEYS.has(key)));
      if (needsAdministrator.length > 0) requireAdministrator(s, `change ${needsAdministrator.join(', ')}`, needsAdministrator[0]);
      if (input.exchangeBaseUrl !== undefined && !exchangeUrlAllowed(input.exchangeBaseUrl, { trainingMode: trainingAfter, allowLoopbackHttp: s.deps.provisioning?.allowLoopbackHttp === true })) {
        fail('VALIDATION', 'The exchange URL must be https (plain http only to this machine, in training mode).', { field: 'exchangeBaseUrl' });
      }
      const exchangeMoved = input.exchangeBaseUrl !== undefined && exchangeOriginOf(input.exchangeBaseUrl) !== exchangeOriginOf(before.exchangeBaseUrl);
      c.settings.update(input);
      c.engine.audit({ action: 'settings.update', outcome: 'succeeded', summary: `changed ${Object.keys(input).join(', ') || 'nothing'}` });
      if (exchangeMoved) {
        // A new exchange gets the secret again from the administrator, never the stored one.
        await c.settings.forgetClientSecret();
        await c.session.signOut(false);
        c.engine.audit({ action: 'facility.signOut', outcome: 'succeeded', summary: 'the exchange URL changed: the stored client secret is forgotten' });
      } else if (
        (input.exchangeBaseUrl !== undefined && input.exchangeBaseUrl !== before.exchangeBaseUrl) ||
        (input.facilityCode !== undefined && input.facilityCode !== before.facilityCode) ||
        (input.trainingMode !== undefined && input.trainingMode !== before.trainingMode)
      ) {
        await c.session.settingsChanged();
      }
      if (input.idleLockMinutes !== undefined) s.lock.arm();
      await s.followSettings();
      s.statusChanged();
      return c.settings.view();
    },
    'facility.signIn': async (input) => {
      const c = s.ctx;
      if ((input.clientSecret !== undefined || input.clientId !== undefined) && !c.settings.values.trainingMode) requireAdministrator(s, 'give the facility’s credentials', 'clientSecret');
      try {
        const session = await c.session.signIn(input.clientId, input.clientSecret);
        c.engine.audit({ action: 'facility.signIn', outcome: 'succeeded', summary: 'facility signed in' });
        return session;
      } catch (error) {
        c.engine.audit({ action: 'facility.signIn', outcome: 'failed', errorCode: toStationError(error, (t) => c.scrubber.scrub(t)).code, summary: 'sign-in refused' });
        throw error;
      }
    },
    'facility.signOut': async (input) => {
      const c = s.ctx;
      if (input.forgetCredentials === true && !c.settings.values.trainingMode) requireAdministrator(s, 'forget the facility’s credentials', 'forgetCredentials');
      const session = await c.session.signOut(input.forgetCredentials === true);
      c.engine.audit({ action: 'facility.signOut', outcome: 'succeeded', summary: input.forgetCredentials === true ? 'signed out; credentials forgotten' : 'signed out' });
      return session;
    },
  });
