// station.*, audit.*, workflow.*: the status and the lock (a staff member's PIN opens it, another's
// switches the user), the audit log, and the workflows as views.
import { fail } from '../errors';
import type { StaffMember } from '../staff';
import { isShown } from '../workflows/emergency';
import { selectWorkflows } from '../views/work-queue';
import { defineCommands, type StationServices } from './services';
import { guardedPinCheck } from './staff';

/**
 * A PIN at the lock (or at any time): her own opens the station, another staff member's switches the
 * user. Five wrong PINs in a row and no PIN is tried for a minute.
 */
async function signInByPin(s: StationServices, pin: string): Promise<void> {
  const c = s.ctx;
  const guard = s.pinGuard;
  const before = guard.state();
  if (!before.open) fail('PIN_LOCKED', 'Five wrong PINs: wait a minute before trying again.', { retryAt: new Date(before.retryAt).toISOString() });
  const member = await s.staff.findByPin(pin);
  if (member === null) {
    const after = guard.failed();
    c.engine.audit({ action: 'station.unlock', outcome: 'failed', errorCode: after.open ? 'PIN_WRONG' : 'PIN_LOCKED', summary: 'a wrong PIN' });
    if (!after.open) fail('PIN_LOCKED', 'Five wrong PINs: the station is locked for a minute.', { retryAt: new Date(after.retryAt).toISOString() });
    fail('PIN_WRONG', 'No staff member of this station has that PIN.', { attemptsLeft: after.attemptsLeft, field: 'pin' });
  }
  guard.succeeded();
  signIn(s, member);
}

/** She works at the station now: signed in (or taking over from whoever was), and the lock open. */
function signIn(s: StationServices, member: StaffMember): void {
  const c = s.ctx;
  const previous = s.current();
  s.setCurrent(member);
  if (previous !== null && previous.ref !== member.ref) {
    // The record's actor names who took over; summaries are fixed wording (the scrubber would blank a name a patient shares).
    c.engine.audit({ action: 'staff.switch', outcome: 'succeeded', summary: `took over from ${previous.ref} (${member.role})` });
  } else if (previous === null) {
    c.engine.audit({ action: 'staff.signIn', outcome: 'succeeded', summary: `signed in (${member.role})` });
  }
  if (s.lock.unlock()) {
    c.engine.audit({ action: 'station.unlock', outcome: 'succeeded', summary: 'unlocked' });
    s.emit({ type: 'station.unlocked', at: c.nowIso() });
  }
  s.statusChanged();
}

export const stationCommands = (s: StationServices) =>
  defineCommands({
    'audit.read': async (input) => {
      const { page: _p, pageSize: _s, search: _q, ...filters } = input;
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? 50;
      const { items, total } = s.audit.read(filters, page, pageSize);
      return { items: s.activity.entries(items), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
    },
    'audit.export': async (input) => {
      const c = s.ctx;
      // The trail's head as the keystore holds it, at this moment, goes with the file.
      await s.audit.checkpoint();
      const head = s.audit.anchoredHead();
      const { content, count } = s.audit.exportJsonLines(input);
      const trail = { head, keyedFrom: s.audit.keyedFrom, exportedAt: c.nowIso(), filtered: Object.values(input).some((value) => value !== undefined) };
      c.engine.audit({ action: 'audit.export', outcome: 'succeeded', summary: `${count} records exported` });
      const stamp = c.nowIso().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
      return { fileName: `idhini-audit-${stamp}.jsonl`, mediaType: 'application/x-ndjson' as const, recordCount: count, content: `${content}${JSON.stringify({ trail })}\n`, head, keyedFrom: trail.keyedFrom };
    },
    'audit.verify': async () => {
      await s.audit.checkpoint();
      return { ...s.audit.verify(), checkedAt: s.ctx.nowIso() };
    },

    'station.status': async () => s.status(),
    'station.lock': async () => {
      s.lock.lock('manual');
      return s.status();
    },
    'station.unlock': async (input) => {
      await signInByPin(s, input.pin);
      return s.status();
    },
    'station.setUpAdministrator': async (input) => {
      const c = s.ctx;
      if (s.staff.administratorExists || c.settings.values.trainingMode) {
        fail('WRONG_STATE', 'This station already has an administrator (or is in training mode): sign in with a PIN.');
      }
      // Whether the PIN is a nurse's is nobody's to learn here: refused without saying why, and counted.
      await guardedPinCheck(s, {
        action: 'station.setUpAdministrator',
        field: 'pin',
        right: async () => !(await s.staff.taken(input.pin)),
        wrong: { code: 'VALIDATION', message: 'This PIN cannot be used: choose another.', summary: 'a PIN that cannot be used' },
      });
      const added = await s.staff.add({ ...input, role: 'administrator' }, 'station');
      c.engine.audit({ action: 'staff.add', outcome: 'succeeded', summary: `${added.ref} added (the station's first administrator)` });
      signIn(s, added);
      return s.status();
    },
    'station.reportActivity': async () => {
      if (!s.lock.locked) s.lock.activity();
      return s.status();
    },

    'workflow.get': async (input) => {
      const wf = s.ctx.engine.get(input.workflowId);
      if (wf === undefined || !isShown(wf)) fail('NOT_FOUND', 'No such workflow on this station.', { field: 'workflowId' });
      return s.viewOf(wf);
    },
    'workflow.list': async (input) => {
      const items = selectWorkflows(s.ctx.engine, input)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(0, 200)
        .map((wf) => s.viewOf(wf));
      return { items };
    },
    'work.queue': async (input) => ({ items: s.workQueue.items(selectWorkflows(s.ctx.engine, input), (wf) => s.viewOf(wf)).slice(0, 200) }),
  });
