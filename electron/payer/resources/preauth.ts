// Preauthorization of elective care: create, find, cancel, and corrections before approval.
import { defineOperation, jsonBody, nameOperations } from '../operation';
import { confirmation } from '../wire/common';
import {
  cancelPreauthRequest,
  cancelPreauthResponse,
  createPreauthRequest,
  createPreauthResponse,
  findPreauthQuery,
  findPreauthResponse,
  removePreauthDiagnosisRequest,
  removePreauthDiagnosisResponse,
  removePreauthDoctorRequest,
} from '../wire/preauth';

export const preauthOperations = nameOperations('preauth', {
  create: defineOperation({
    method: 'POST',
    path: '/api/v1/preauths',
    safeToRepeat: false,
    request: createPreauthRequest,
    response: { schema: createPreauthResponse },
  }),
  find: defineOperation({
    method: 'GET',
    path: '/api/v1/preauths',
    safeToRepeat: true,
    request: findPreauthQuery,
    response: { schema: findPreauthResponse },
  }),
  // The singular /api/v1/preauth/cancel is retired (service-interface.md, "Versioning").
  cancel: defineOperation({
    method: 'POST',
    path: '/api/v1/preauths/cancel',
    safeToRepeat: false,
    request: cancelPreauthRequest,
    response: { schema: cancelPreauthResponse },
  }),
  removeDiagnosis: defineOperation({
    method: 'DELETE',
    path: '/api/v1/preauths/diagnoses/{icd_code}',
    safeToRepeat: false,
    request: removePreauthDiagnosisRequest,
    encode: (v) => ({ params: { icd_code: v.icd_code }, body: jsonBody(v) }),
    response: { schema: removePreauthDiagnosisResponse },
  }),
  removeDoctor: defineOperation({
    method: 'DELETE',
    path: '/api/v1/preauths/doctors',
    safeToRepeat: false,
    request: removePreauthDoctorRequest,
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
});
