// Taking consent. consent.begin starts flow B's consent with the route already decided; the other
// consent.* commands act on the verification step of whichever workflow is taking consent (consent,
// elective, discharge, emergency) and answer with that workflow's view. Exchange tokens, guids and
// OTPs stay in the main side: the renderer holds the workflow id and, for fingerprints, the link.
import { z } from 'zod';
import { interventionCode, linkHandle, longText, patientRef, serviceType, workflowId } from './common';
import { lineAttachment } from './visit';
import { consentView, whitelistReasonType, workflowView } from './workflows';

const onWorkflow = z.strictObject({ workflowId });

export const screenArea = z.strictObject({
  x: z.number().min(0).max(100_000),
  y: z.number().min(0).max(100_000),
  width: z.number().min(1).max(100_000),
  height: z.number().min(1).max(100_000),
});

/**
 * The one paper a whitelist request may carry (PDF, JPEG or PNG, within the command's file limit):
 * sent with the request at once, never kept. SHA publishes one type for it, so none is chosen.
 */
export const whitelistDocument = lineAttachment.omit({ documentType: true });

export const consentCommands = {
  /**
   * Starts consent for a visit. Without an intervention the core uses the suggested one; the route
   * (fingerprint, SMS code, SMS fallback or blocked) comes back decided, with its reason.
   */
  'consent.begin': {
    input: z.strictObject({
      patientRef,
      interventionCode: interventionCode.optional(),
      serviceType: serviceType.optional(),
      /**
       * At the pharmacy window: consent to dispense under the patient's visit already open at SHA
       * for this intervention (pharmacy.openVisits). The consent then reaches that visit and never
       * opens a new one: refused when none is open.
       */
      forOpenVisit: z.literal(true).optional(),
    }),
    output: consentView,
  },
  /** Sends (or, after the cooldown, resends) the SMS code; without a contact, to the main one. */
  'consent.sendSms': {
    input: z.strictObject({ workflowId, contactId: z.string().min(1).max(100).optional() }),
    output: workflowView,
  },
  /**
   * The code the patient (or, in an emergency, the doctor) read out. Flow B's consent and an
   * elective's visit day spend it on the visit at once (the visit is the consent): the answer is
   * then the consent with its visit open; a code the visit refuses leaves the step at the code.
   */
  'consent.confirmSms': {
    input: z.strictObject({ workflowId, code: z.string().regex(/^[0-9]{4,8}$/, 'must be the 4 to 8 digits of the SMS code') }),
    output: workflowView,
  },
  /** Asks the exchange for a fingerprint authorization; the view then carries the authorization link. */
  'consent.startFingerprint': { input: onWorkflow, output: workflowView },
  /**
   * Looks the pending fingerprint authorization up now, as when the authorization page says it is
   * done (a hint only: the exchange's answer decides). Flow B's consent opens its visit once the
   * exchange says AUTHORIZED. Nothing pending: the view as it is.
   */
  'consent.checkFingerprint': { input: onWorkflow, output: workflowView },
  /** Withdraws a pending fingerprint request (rejecting it at the exchange) or an unconfirmed SMS code. */
  'consent.cancel': { input: onWorkflow, output: workflowView },
  /** After a rejection or expiry: the same route again, with a fresh request. */
  'consent.retry': { input: onWorkflow, output: workflowView },
  /** For a patient with no phone or no usable fingerprints: asks the payer to allow SMS codes. */
  'consent.requestWhitelist': {
    input: z.strictObject({ workflowId, reasonType: whitelistReasonType, reasonText: longText.optional(), document: whitelistDocument.optional() }),
    output: workflowView,
  },
  /**
   * The rectangle (CSS pixels of the renderer's window) the renderer reserves for the authorization
   * link, or null when hidden. The Electron shell lays its own view over it; the browser host answers
   * that the renderer shows the link itself, in a sandboxed iframe.
   */
  'authorizationView.setArea': {
    input: z.strictObject({ handle: linkHandle, area: screenArea.nullable() }),
    output: z.strictObject({ shownBy: z.enum(['shell', 'renderer']) }),
  },
};
