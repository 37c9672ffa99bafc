// Claims: the visit, billing lines and diagnoses, doctors, preview, discharge and submit,
// attachments, and the housekeeping calls. Only preview (and the payer's preview) may be repeated:
// submit is not known to be idempotent, so a lost answer is reconciled with preview, never resent.
import { defineOperation, jsonBody, nameOperations } from '../operation';
import { confirmation } from '../wire/common';
import {
  addBillingRequest,
  addInterventionResponse,
  addDiagnosisRequest,
  addDoctorRequest,
  addLineRequest,
  attachment,
  claimDiagnosis,
  claimInterventionRequest,
  claimLine,
  claimStateResponse,
  closeClaimRequest,
  createVisitRequest,
  createVisitResponse,
  dischargeRequest,
  editLineRequest,
  housekeepingResponse,
  lineFilePart,
  payerPreviewQuery,
  payerPreviewResponse,
  previewRequest,
  previewResponse,
  removeAttachmentRequest,
  removeDiagnosisRequest,
  removeDoctorRequest,
  removeLineRequest,
  resubmitRequest,
  resubmitResponse,
  resubmittedClaimResponse,
  submitEmergencyRequest,
  submitRequest,
  switchInterventionRequest,
  uploadAttachmentRequest,
} from '../wire/claims';
import { filePart, multipart } from './encode';

export const claimsOperations = nameOperations('claims', {
  createVisit: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/visit',
    safeToRepeat: false,
    request: createVisitRequest,
    response: { schema: createVisitResponse },
  }),
  addLine: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/lines',
    safeToRepeat: false,
    request: addLineRequest,
    // The JSON shape carries amounts as text, as A's types and the exchange's Postman collection write them.
    encode: (line) => ({ body: jsonBody({ ...line, unit_price: String(line.unit_price), quantity: String(line.quantity) }) }),
    response: { schema: claimLine },
  }),
  addBilling: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/lines',
    safeToRepeat: false,
    request: addBillingRequest,
    encode: ({ attachments = [], ...fields }) => ({
      body: multipart(
        {
          ...fields,
          ...(attachments.length === 0
            ? {}
            : { attachments: attachments.map((a, n) => ({ document_title: a.document_title, document_type: a.document_type, file_field_name: lineFilePart(n) })) }),
        },
        attachments.map((a, n) => filePart(lineFilePart(n), a.file)),
      ),
    }),
    response: { schema: claimLine },
  }),
  addDiagnosis: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/diagnoses',
    safeToRepeat: false,
    request: addDiagnosisRequest,
    response: { schema: claimDiagnosis },
  }),
  addDoctor: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/doctors',
    safeToRepeat: false,
    request: addDoctorRequest,
    response: { schema: housekeepingResponse, emptyBody: true, textBody: true },
  }),
  removeDoctor: defineOperation({
    method: 'DELETE',
    path: '/api/v1/claims/doctors',
    safeToRepeat: false,
    request: removeDoctorRequest,
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
  preview: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/preview',
    // Read-only despite the POST: the station reconciles with it after a crash.
    safeToRepeat: true,
    request: previewRequest,
    response: { schema: previewResponse },
  }),
  payerPreview: defineOperation({
    method: 'GET',
    path: '/api/v1/claims/preview/payer',
    safeToRepeat: true,
    request: payerPreviewQuery,
    response: { schema: payerPreviewResponse },
  }),
  discharge: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/discharge',
    safeToRepeat: false,
    request: dischargeRequest,
    response: { schema: claimStateResponse },
  }),
  submit: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/submit',
    safeToRepeat: false,
    request: submitRequest,
    response: { schema: claimStateResponse },
  }),
  submitEmergency: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/submit',
    safeToRepeat: false,
    request: submitEmergencyRequest,
    response: { schema: claimStateResponse },
  }),
  uploadAttachment: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/attachments',
    safeToRepeat: false,
    request: uploadAttachmentRequest,
    encode: ({ file_blob, ...fields }) => ({ body: multipart(fields, [filePart('file_blob', file_blob)]) }),
    response: { schema: attachment },
  }),
  removeLine: defineOperation({
    method: 'PATCH',
    path: '/api/v1/claims/lines',
    safeToRepeat: false,
    request: removeLineRequest,
    response: { schema: housekeepingResponse, emptyBody: true, textBody: true },
  }),
  removeDiagnosis: defineOperation({
    method: 'PATCH',
    path: '/api/v1/claims/diagnoses',
    safeToRepeat: false,
    request: removeDiagnosisRequest,
    response: { schema: housekeepingResponse, emptyBody: true, textBody: true },
  }),
  removeAttachment: defineOperation({
    method: 'PATCH',
    path: '/api/v1/claims/attachments',
    safeToRepeat: false,
    request: removeAttachmentRequest,
    response: { schema: housekeepingResponse, emptyBody: true, textBody: true },
  }),
  switchIntervention: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/interventions/switch',
    safeToRepeat: false,
    request: switchInterventionRequest,
    response: { schema: housekeepingResponse, emptyBody: true, textBody: true },
  }),
  // Several services on one claim (R WORKFLOWS §9.8, all three verified on UAT). Retiring deletes the
  // intervention's lines; restoring brings the intervention back without them.
  addIntervention: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/interventions',
    safeToRepeat: false,
    request: claimInterventionRequest,
    response: { schema: addInterventionResponse },
  }),
  retireIntervention: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/interventions/retire',
    safeToRepeat: false,
    request: claimInterventionRequest,
    response: { schema: housekeepingResponse, emptyBody: true, textBody: true },
  }),
  restoreIntervention: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/interventions/restore',
    safeToRepeat: false,
    request: claimInterventionRequest,
    response: { schema: housekeepingResponse, emptyBody: true, textBody: true },
  }),
  close: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/close',
    safeToRepeat: false,
    request: closeClaimRequest,
    response: { schema: claimStateResponse },
  }),
  // A returned claim's resubmission: three documented routes disagree (docs/exchange-wire.md);
  // resubmitReturnedClaim (../resubmission.ts) tries them in order.
  resubmit: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/lines/resubmit',
    safeToRepeat: false,
    request: resubmitRequest,
    response: { schema: resubmitResponse },
  }),
  resubmitAtPostmanPath: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/resubmit',
    safeToRepeat: false,
    request: resubmitRequest,
    response: { schema: resubmitResponse },
  }),
  resubmitBySubmit: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/submit',
    safeToRepeat: false,
    request: resubmitRequest,
    response: { schema: resubmittedClaimResponse },
  }),
  editLine: defineOperation({
    method: 'PATCH',
    path: '/api/v1/claims/lines/edit',
    safeToRepeat: false,
    request: editLineRequest,
    // The edit carries the price as text (R docs billing types unit_price a string; R sends "9.50").
    encode: (edit) => ({ body: jsonBody({ ...edit, unit_price: edit.unit_price === undefined ? undefined : String(edit.unit_price) }) }),
    response: { schema: claimLine },
  }),
});
