// The exchange calls the station journals, each declared once with its payer operation and how a
// call of it whose answer is not known gets settled (its reconcile policy). The policy is written
// into the journal row with the call, so recovery reads it from the row, never from a list kept
// elsewhere.
import { operationGroups, type OperationName } from '../../payer';

/**
 * How an unanswered call is settled before anything is sent again:
 * - `look-up`: the workflow's own look-up decides (the claim preview, the preauth look-up, the
 *   facility's authorizations list for a fingerprint request): at once where what it finds already
 *   settles the call, and after a grace period, when a request only slow would have landed;
 * - `post-again`: posted again, the exchange answers with what it made (the visit: "an open visit
 *   is answered again rather than duplicated");
 * - `send-again`: harmless to repeat (rejecting a pending fingerprint request);
 * - `cannot-look-up`: nothing finds its result without its answer (an SMS code sent, a code spent
 *   by the OTP authorize, a request to a doctor, an emergency claim created): never re-sent; the
 *   workflow says what it knows and offers the one safe next step.
 * Engine.send acts on the policy when an answer is lost; recovery.ts when the station comes back.
 */
export type ReconcilePolicy = 'look-up' | 'post-again' | 'send-again' | 'cannot-look-up';

export interface JournalEntry {
  readonly name: OperationName;
  readonly reconcile: ReconcilePolicy;
}

function entry(operation: { readonly name: string }, reconcile: ReconcilePolicy): JournalEntry {
  return { name: operation.name as OperationName, reconcile };
}

const { consent, claims, preauth, emergency, eligibility, prescriptions } = operationGroups;

export const journal = {
  sendOtp: entry(consent.sendOtp, 'cannot-look-up'),
  sendDischargeOtp: entry(consent.sendDischargeOtp, 'cannot-look-up'),
  authorizeOtp: entry(consent.authorizeOtp, 'cannot-look-up'),
  // A fingerprint request left PENDING blocks the patient's SMS consent: the facility's
  // authorizations list finds it, and it is rejected (verification.ts, withdrawStrayRequests).
  authorizeBiometric: entry(consent.authorizeBiometric, 'look-up'),
  authorizeDischarge: entry(consent.authorizeDischarge, 'look-up'),
  rejectAuthorization: entry(consent.rejectAuthorization, 'send-again'),
  requestOtpWhitelist: entry(consent.requestOtpWhitelist, 'cannot-look-up'),
  resendDoctorConsent: entry(consent.resendDoctorConsent, 'cannot-look-up'),
  createVisit: entry(claims.createVisit, 'post-again'),
  addBilling: entry(claims.addBilling, 'look-up'),
  addDoctor: entry(claims.addDoctor, 'look-up'),
  removeLine: entry(claims.removeLine, 'look-up'),
  removeDoctor: entry(claims.removeDoctor, 'look-up'),
  addDiagnosis: entry(claims.addDiagnosis, 'look-up'),
  removeDiagnosis: entry(claims.removeDiagnosis, 'look-up'),
  editLine: entry(claims.editLine, 'look-up'),
  switchIntervention: entry(claims.switchIntervention, 'look-up'),
  // Several services on one claim: the preview lists each with its state.
  addIntervention: entry(claims.addIntervention, 'look-up'),
  retireIntervention: entry(claims.retireIntervention, 'look-up'),
  restoreIntervention: entry(claims.restoreIntervention, 'look-up'),
  closeClaim: entry(claims.close, 'look-up'),
  setCover: entry(eligibility.setCover, 'look-up'),
  discharge: entry(claims.discharge, 'look-up'),
  submit: entry(claims.submit, 'look-up'),
  submitEmergency: entry(claims.submitEmergency, 'look-up'),
  createPreauth: entry(preauth.create, 'look-up'),
  cancelPreauth: entry(preauth.cancel, 'look-up'),
  removePreauthDiagnosis: entry(preauth.removeDiagnosis, 'look-up'),
  createEmergencyClaim: entry(emergency.createClaim, 'cannot-look-up'),
  addEmergencyProtocol: entry(emergency.addProtocol, 'look-up'),
  identifyEmergencyClaim: entry(emergency.identifyClaim, 'look-up'),
  requestEmergencyDoctorApproval: entry(emergency.requestDoctorApproval, 'cannot-look-up'),
  // A claim's papers and its resubmission: the claim preview shows what became of them.
  uploadAttachment: entry(claims.uploadAttachment, 'look-up'),
  removeAttachment: entry(claims.removeAttachment, 'look-up'),
  resubmit: entry(claims.resubmit, 'look-up'),
  // A prescription is read back by its consent token, one object per token: the first of a visit
  // is settled by that read-back; a later one may never be the one it shows (workflows/prescriptions.ts).
  createPrescription: entry(prescriptions.create, 'look-up'),
  createFurtherPrescription: entry(prescriptions.create, 'cannot-look-up'),
  // No operation finds a dispense: a lost answer is never sent again.
  dispense: entry(prescriptions.dispense, 'cannot-look-up'),
} as const satisfies Record<string, JournalEntry>;

const byName = new Map<string, JournalEntry>(Object.values(journal).map((e) => [e.name, e]));

/**
 * The policy of a journal row: the one written with it; rows journaled before policies were
 * written take their operation's (`claims.addLine`, which billing used before it went multipart,
 * is a line like `claims.addBilling`; a prescription create of that time, `cannot-look-up`, as it was
 * written then: the later entry of an operation named twice).
 */
export function policyOf(operation: string, written: unknown): ReconcilePolicy {
  if (written === 'look-up' || written === 'post-again' || written === 'send-again' || written === 'cannot-look-up') return written;
  return byName.get(operation)?.reconcile ?? 'look-up';
}
