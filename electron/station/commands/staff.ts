// staff.*: who may sign in at this station (the administrator's), and the first administrator of
// a station that has none.
import { fail } from '../errors';
import type { StaffMember } from '../staff';
import { defineCommands, type StationServices } from './services';
import { requireAdministrator } from './settings';

export function staffView(member: StaffMember) {
  return { staffRef: member.ref, name: member.name.slice(0, 200), role: member.role, nationalIdKnown: member.nationalId !== null, source: member.source };
}

export const staffCommands = (s: StationServices) =>
  defineCommands({
    'staff.list': async () => {
      requireAdministrator(s, 'see the staff list');
      return { items: s.staff.all().map(staffView) };
    },
    'staff.add': async (input) => {
      const c = s.ctx;
      const firstAdministrator = !s.staff.administratorExists && input.role === 'administrator' && !c.settings.values.trainingMode;
      if (!firstAdministrator) requireAdministrator(s, 'add staff');
      const added = await s.staff.add(input, 'station');
      if (added === null) fail('VALIDATION', 'Another staff member has this PIN: choose another.', { field: 'pin' });
      c.engine.audit({ action: 'staff.add', outcome: 'succeeded', summary: `${added.ref} added (${added.role})` });
      s.statusChanged();
      return staffView(added);
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
