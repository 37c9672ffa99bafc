// Preauthorization of elective care: create (multipart), find, cancel, and corrections before approval.
import type { z } from 'zod';
import { defineOperation, jsonBody, nameOperations, type EncodedRequest } from '../operation';
import { confirmation, decimalText } from '../wire/common';
import {
  cancelPreauthRequest,
  createPreauthRequest,
  findPreauthQuery,
  findPreauthResponse,
  preauthResponse,
  removePreauthDiagnosisRequest,
  removePreauthDoctorRequest,
} from '../wire/preauth';
import { filePart, multipart } from './encode';

/**
 * The Postman shape A, K and R send: the lists as JSON text parts, each doctor and diagnosis naming
 * the intervention (and each diagnosis the consent token), each attachment's metadata naming the
 * file part that carries it (`attachments_0_file_blob`, …).
 */
function encodeCreate({ items, doctors, diagnoses, attachments, ...flat }: z.output<typeof createPreauthRequest>): EncodedRequest {
  const { consent_token, intervention_code } = flat;
  const parts = attachments.map((a, n) => ({ ...a, part: `attachments_${n}_file_blob` }));
  return {
    body: multipart(
      {
        ...flat,
        items: items.map((i) => ({ unit_price: decimalText(i.unit_price) })),
        doctors: doctors.map((d) => ({ ...d, intervention_code })),
        diagnoses: diagnoses.map((d) => ({ icd_code: d.icd_code, consent_token, intervention_code })),
        attachments: parts.map((a) => ({ document_title: a.document_title, document_type: a.document_type, file_field_name: a.part })),
      },
      parts.map((a) => filePart(a.part, a.file)),
    ),
  };
}

export const preauthOperations = nameOperations('preauth', {
  create: defineOperation({
    method: 'POST',
    path: '/api/v1/preauths',
    safeToRepeat: false,
    request: createPreauthRequest,
    encode: encodeCreate,
    response: { schema: preauthResponse },
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
    response: { schema: preauthResponse },
  }),
  removeDiagnosis: defineOperation({
    method: 'DELETE',
    path: '/api/v1/preauths/diagnoses/{icd_code}',
    safeToRepeat: false,
    request: removePreauthDiagnosisRequest,
    encode: (v) => ({ params: { icd_code: v.icd_code }, body: jsonBody(v) }),
    response: { schema: preauthResponse },
  }),
  removeDoctor: defineOperation({
    method: 'DELETE',
    path: '/api/v1/preauths/doctors',
    safeToRepeat: false,
    request: removePreauthDoctorRequest,
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
});
