// Prescriptions and dispenses.
import { defineOperation, nameOperations } from '../operation';
import { confirmation } from '../wire/common';
import {
  createPrescriptionRequest,
  dispenseRequest,
  dispenseResponse,
  prescriptionResponse,
  previewPrescriptionQuery,
  previewPrescriptionResponse,
  removePrescriptionDoctorRequest,
} from '../wire/prescriptions';

export const prescriptionsOperations = nameOperations('prescriptions', {
  create: defineOperation({
    method: 'POST',
    path: '/api/v1/prescriptions',
    safeToRepeat: false,
    request: createPrescriptionRequest,
    response: { schema: prescriptionResponse },
  }),
  // The read-back by consent token (portal "Preview prescription"): SHA's status and the
  // prescriber's review, and what settles a create whose answer was lost.
  preview: defineOperation({
    method: 'GET',
    path: '/api/v1/prescriptions',
    safeToRepeat: true,
    request: previewPrescriptionQuery,
    response: { schema: previewPrescriptionResponse },
  }),
  // The singular path: the portal's /prescriptions/dispenses answered 404 on UAT and this one 200
  // (R `create_dispense()`, 2026-09-24).
  dispense: defineOperation({
    method: 'POST',
    path: '/api/v1/prescriptions/dispense',
    safeToRepeat: false,
    request: dispenseRequest,
    response: { schema: dispenseResponse },
  }),
  // The path the portal documents. A 404 cannot be told from "unknown consent token", so the
  // client never falls from one to the other by itself.
  dispenseAtDocumentedPath: defineOperation({
    method: 'POST',
    path: '/api/v1/prescriptions/dispenses',
    safeToRepeat: false,
    request: dispenseRequest,
    response: { schema: dispenseResponse },
  }),
  removeDoctor: defineOperation({
    method: 'DELETE',
    path: '/api/v1/prescriptions/doctors',
    safeToRepeat: false,
    request: removePrescriptionDoctorRequest,
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
});
