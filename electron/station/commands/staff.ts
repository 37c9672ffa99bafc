// staff.*: who may sign in at this station, the administrator's to change, signed in now. Adding or
// changing an administrator takes her own PIN again. A PIN being set that another staff member
// already has is refused — and, since that answer tells whether a guess is somebody's PIN, counted
// as a wrong PIN by the same five-tries guard as the lock. (The first administrator of a station
// that has none signs in with station.setUpAdministrator.)
import { fail } from '../errors';
import type { StaffMember } from '../staff';
import { defineCommands, type StationServices } from './services';
import { requireAdministrator } from './settings';

export function staffView(member: StaffMember) {
  return { staffRef: member.ref, name: member.name.slice(0, 200), role: member.role, nationalIdKnown: member.nationalId !== null, source: member.source, pin: member.pin };
}

/**
 * A PIN tried for something other than signing in, under the lock's guard: refused while the guard
 * is shut; a wrong one counted (PIN_WRONG with the tries left, PIN_LOCKED at the fifth) and audited.
 */
export async function guardedPinCheck(s: StationServices, o: { action: string; field: string; right: () => Promise<boolean>; wrong: { code: 'PIN_WRONG' | 'VALIDATION'; message: string; summary: string } }): Promise<void> {
  const guard = s.pinGuard;
  const before = guard.state();
  if (!before.open) fail('PIN_LOCKED', 'Five wrong PINs: wait a minute before trying again.', { retryAt: new Date(before.retryAt).toISOString() });
  if (await o.right()) return;
  const after = guard.failed();
  s.ctx.engine.audit({ action: o.action, outcome: 'failed', errorCode: after.open ? o.wrong.code : 'PIN_LOCKED', summary: o.wrong.summary });
  if (!after.open) fail('PIN_LOCKED', 'Five wrong PINs: the station is locked for a minute.', { retryAt: new Date(after.retryAt).toISOString() });
  fail(o.wrong.code, o.wrong.message, { attemptsLeft: after.attemptsLeft, field: o.field });
}

/** The signed-in administrator's own PIN again, before she makes or changes an administrator. */
async function confirmAdministrator(s: StationServices, action: string, administrator: StaffMember, pin: string | undefined): Promise<void> {
  if (pin === undefined) fail('VALIDATION', 'Making or changing an administrator needs your own PIN again.', { field: 'administratorPin' });
  await guardedPinCheck(s, {
    action,
    field: 'administratorPin',
    right: () => s.staff.isPinOf(administrator.ref, pin),
    wrong: { code: 'PIN_WRONG', message: 'That is not your PIN.', summary: 'the administrator’s PIN again: wrong' },
  });
}

/** A PIN being set must be nobody else's; asking counts as a try. */
async function requireFreePin(s: StationServices, action: string, pin: string, except?: string): Promise<void> {
  await guardedPinCheck(s, {
    action,
    field: 'pin',
    right: async () => !(await s.staff.taken(pin, except)),
    wrong: { code: 'VALIDATION', message: 'Another staff member has this PIN: choose another.', summary: 'a PIN another staff member has' },
  });
}

export const staffCommands = (s: StationServices) =>
  defineCommands({
    'staff.list': async () => {
      requireAdministrator(s, 'see the staff list');
      return { items: s.staff.all().map(staffView) };
    },
    'staff.add': async (input) => {
      const c = s.ctx;
      const administrator = requireAdministrator(s, 'add staff');
      if (input.role === 'administrator') await confirmAdministrator(s, 'staff.add', administrator, input.administratorPin);
      await requireFreePin(s, 'staff.add', input.pin);
      const added = await s.staff.add(input, 'station');
      c.engine.audit({ action: 'staff.add', outcome: 'succeeded', summary: `${added.ref} added (${added.role})` });
      s.statusChanged();
      return staffView(added);
    },
    'staff.setPin': async (input) => {
      const c = s.ctx;
      const administrator = requireAdministrator(s, 'change a PIN');
      const member = s.staff.get(input.staffRef);
      if (member === undefined) fail('NOT_FOUND', 'No such staff member at this station.', { field: 'staffRef' });
      if (member.source !== 'station') fail('PROVISIONED', 'This staff member comes from the provisioning: change the PIN there.', { field: 'staffRef' });
      if (member.role === 'administrator') await confirmAdministrator(s, 'staff.setPin', administrator, input.administratorPin);
      await requireFreePin(s, 'staff.setPin', input.pin, member.ref);
      await s.staff.setPin(member.ref, input.pin);
      c.engine.audit({ action: 'staff.setPin', outcome: 'succeeded', summary: `${member.ref} has a new PIN (${member.role})` });
      return { items: s.staff.all().map(staffView) };
    },
    'staff.remove': async (input) => {
      const c = s.ctx;
      requireAdministrator(s, 'remove staff');
      const member = s.staff.get(input.staffRef);
      if (member === undefined) fail('NOT_FOUND', 'No such staff member at this station.', { field: 'staffRef' });
      if (member.source !== 'station') fail('PROVISIONED', 'This staff member comes from the provisioning: change it there.', { field: 'staffRef' });
      if (member.ref === s.current()?.ref) fail('WRONG_STATE', 'You cannot remove yourself while signed in.', { field: 'staffRef' });
      s.staff.remove(member.ref);
      c.engine.audit({ action: 'staff.remove', outcome: 'succeeded', summary: `${member.ref} removed (${member.role})` });
      s.statusChanged();
      return { items: s.staff.all().map(staffView) };
    },
  });
