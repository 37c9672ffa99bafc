// Idle means no nurse. A station locks once the administrator's minutes pass in which no person
// acted, and which commands are a person's doing is decided here, by what a command is — never by
// who says it sends it, so both shells and any caller are held to the same rule. Every change is
// somebody's act (a consent, a line, a setting, a sign-in), and so are the look-ups only a nurse's
// hands ask for (a patient's ID number typed, a scanned file opened, the audit exported), and the
// renderer's own word that she is at the keyboard (station.reportActivity, sent on trusted key and
// pointer input). What the screens send by themselves is not: the queue read every minute, a
// workflow fetched after its event, the status, the readers, every other read, the link area laid
// out, and the authorization page's "done" hint (consent.checkFingerprint, the page's doing). A
// command not named here is not a person's, so a poll added later can never keep a station awake.
import type { CommandName } from './index';

export const personCommands: ReadonlySet<CommandName> = new Set<CommandName>([
  // the station and its people
  'station.unlock',
  'station.setUpAdministrator',
  'station.reportActivity',
  'station.lock',
  'settings.update',
  'facility.signIn',
  'facility.signOut',
  'staff.add',
  'staff.setPin',
  'staff.remove',
  'readers.cancelCapture',
  'audit.export',
  'scanner.read',
  // a patient at the bedside
  'patient.lookUp',
  'patient.chooseScheme',
  'consent.begin',
  'consent.sendSms',
  'consent.confirmSms',
  'consent.startFingerprint',
  'consent.cancel',
  'consent.retry',
  'consent.requestWhitelist',
  'visit.open',
  'visit.attachDoctor',
  'visit.addLine',
  'visit.editLine',
  'visit.removeLine',
  'visit.addDiagnosis',
  'visit.removeDiagnosis',
  'visit.switchIntervention',
  'visit.close',
  'discharge.begin',
  'discharge.dischargeInpatient',
  'discharge.submit',
  'elective.begin',
  'elective.submitPreauth',
  'elective.cancelPreauth',
  'elective.changeDoctor',
  'elective.removeDiagnosis',
  'elective.resendDoctorRequest',
  'emergency.create',
  'emergency.addProtocol',
  'emergency.addAnotherProtocol',
  'emergency.requestDoctorApproval',
  'emergency.resendClaim',
  'emergency.changeDoctor',
  'emergency.identify',
  'emergency.submit',
  'claims.attach',
  'claims.removeAttachment',
  'claims.resubmit',
  'prescription.write',
  'prescription.dispense',
  'pharmacy.dispense',
]);

/** Whether a command is a person's doing, which pushes the idle lock back. */
export function isPersonCommand(name: CommandName): boolean {
  return personCommands.has(name);
}
