// Flow C, the emergency claim: created for a patient who may be unidentified, on the attending
// doctor's SMS code; the patient identified later by their own SMS code; submitted within 24 hours
// of the emergency (the view's `submitBy` and its `emergency-submit` deadline).
import { z } from 'zod';
import { attendingDoctor, interventionCode, invoiceNumber, longText, page, pageRequest, patientRef, workflowId } from './common';
import { emergencyProtocol, emergencyView, submitReason } from './workflows';

export const modeOfArrival = z.enum(['AMBULANCE', 'WALK-IN', 'OTHER']);
export const broughtBy = z.enum(['RELATIVE', 'UNKNOWN', 'SAMARITAN', 'PARAMEDICS']);

export const emergencyCommands = {
  /** Emergency protocols with their tariffs; search matches code and name. */
  'emergency.protocols': {
    input: z.strictObject({ interventionCode: interventionCode.optional(), ...pageRequest }),
    output: page(emergencyProtocol),
  },
  /**
   * Starts an emergency claim for an unidentified patient: exactly one intervention and its protocol.
   * The doctor receives an SMS code; consent.confirmSms with it creates the claim.
   */
  'emergency.create': {
    input: z.strictObject({
      interventionCode,
      protocolCode: z.string().min(1).max(60),
      doctor: attendingDoctor,
      modeOfArrival,
      broughtBy,
      referenceNumber: z.string().min(1).max(60).optional(),
      notes: longText.optional(),
    }),
    output: emergencyView,
  },
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
      unknownPatientReason: z.enum(['SHA_UNREGISTERED', 'DECEASED']).optional(),
      notes: longText.optional(),
    }),
    output: emergencyView,
  },
};
