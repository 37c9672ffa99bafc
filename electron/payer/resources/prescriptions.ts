// Prescriptions and dispenses.
import { defineOperation, nameOperations } from '../operation';
import { confirmation } from '../wire/common';
import {
  createPrescriptionRequest,
  dispenseRequest,
  dispenseResponse,
  prescriptionResponse,
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
  dispense: defineOperation({
    method: 'POST',
    path: '/api/v1/prescriptions/dispenses',
    safeToRepeat: false,
    request: dispenseRequest,
    response: { schema: dispenseResponse },
  }),
  // One live test saw /dispenses answer 404 and /dispense 200 (field notes, [1x]). A 404 cannot be
  // told from "unknown consent token", so the client never falls back by itself: the station's
  // settings choose the path.
  dispenseAtSingularPath: defineOperation({
    method: 'POST',
    path: '/api/v1/prescriptions/dispense',
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
