// Flow C, the emergency claim: created at once for a patient who may be unidentified (no prior
// consent), its protocol added and the attending doctor's approval asked for once it exists; the
// patient identified later by their own SMS code; submitted within 24 hours of the emergency (the
// view's `submitBy` and its `emergency-submit` deadline).
import { z } from 'zod';
import { broughtBy as broughtByValues, modesOfArrival, unknownPatientReasons } from '../vocabulary';
import { attendingDoctor, interventionCode, invoiceNumber, longText, page, pageRequest, patientRef, workflowId } from './common';
import { emergencyProtocol, emergencyReference, emergencyView, submitReason } from './workflows';

export const modeOfArrival = z.enum(modesOfArrival);
export const broughtBy = z.enum(broughtByValues);

export const emergencyCommands = {
  /** The active protocols of one emergency intervention, with their tariffs; search matches code and name. */
  'emergency.protocols': {
    input: z.strictObject({ interventionCode, ...pageRequest }),
    output: page(emergencyProtocol),
  },
  /**
   * Creates the emergency claim at once, for a patient who may be unidentified: exactly one
   * intervention and its protocol, the facility's reference number for the emergency and the
   * notes. The protocol is added and the doctor's approval asked for as soon as the claim exists.
   */
  'emergency.create': {
    input: z.strictObject({
      interventionCode,
      protocolCode: z.string().min(1).max(60),
      doctor: attendingDoctor,
      modeOfArrival,
      broughtBy,
      referenceNumber: emergencyReference,
      notes: longText,
    }),
    output: emergencyView,
  },
  /**
   * Sends the claim again after its answer was lost (state `unconfirmed`), once the nurse has
   * checked with SHA that the reference number has no claim there.
   */
  'emergency.resendClaim': { input: z.strictObject({ workflowId }), output: emergencyView },
  /** Adds the claim's protocol when the exchange does not have it yet (refused, or unsent after a lost answer). */
  'emergency.addProtocol': { input: z.strictObject({ workflowId }), output: emergencyView },
  /** Asks the attending doctor for their approval of the claim (again). */
  'emergency.requestDoctorApproval': { input: z.strictObject({ workflowId }), output: emergencyView },
  /**
   * Identifies the patient (found with patient.lookUp): an SMS code goes to the patient, and
   * consent.confirmSms with it updates the same claim, keeping its protocols.
   */
  'emergency.identify': {
    input: z.strictObject({ workflowId, patientRef, contactId: z.string().min(1).max(100).optional() }),
    output: emergencyView,
  },
  /** Submits within the 24 hours; `unknownPatientReason` only while the patient is still unidentified. */
  'emergency.submit': {
    input: z.strictObject({
      workflowId,
      reason: submitReason,
      invoiceNumber: invoiceNumber.optional(),
      unknownPatientReason: z.enum(unknownPatientReasons).optional(),
      notes: longText.optional(),
    }),
    output: emergencyView,
  },
};
