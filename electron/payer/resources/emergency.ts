// Emergency (ECCIF): protocols, the claim created with no prior consent and identified later on
// the same path, a protocol added to it, and the doctor's approval asked for once it exists.
import { defineOperation, jsonBody, nameOperations } from '../operation';
import { confirmation, decimalText } from '../wire/common';
import type { DoctorConsentRequestType } from '../wire/consent';
import {
  addProtocolRequest,
  addProtocolResponse,
  createEmergencyClaimRequest,
  emergencyClaimResponse,
  emergencyDoctorApprovalRequest,
  identifyEmergencyClaimRequest,
  protocolsQuery,
  protocolsResponse,
} from '../wire/emergency';
import { multipart } from './encode';

export const emergencyOperations = nameOperations('emergency', {
  protocols: defineOperation({
    method: 'GET',
    path: '/api/v1/claims/emergency/protocols',
    safeToRepeat: true,
    request: protocolsQuery,
    response: { schema: protocolsResponse },
  }),
  createClaim: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/emergency',
    safeToRepeat: false,
    request: createEmergencyClaimRequest,
    response: { schema: emergencyClaimResponse },
  }),
  identifyClaim: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/emergency',
    safeToRepeat: false,
    request: identifyEmergencyClaimRequest,
    response: { schema: emergencyClaimResponse },
  }),
  addProtocol: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/emergency/protocols',
    safeToRepeat: false,
    request: addProtocolRequest,
    encode: ({ diagnoses, unit_price, ...fields }) => ({
      body: multipart({ ...fields, unit_price: decimalText(unit_price), ...(diagnoses === undefined ? {} : { diagnoses: diagnoses.join(',') }) }, []),
    }),
    response: { schema: addProtocolResponse },
  }),
  requestDoctorApproval: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/doctor-consent',
    safeToRepeat: false,
    request: emergencyDoctorApprovalRequest,
    encode: (v) => ({ body: jsonBody({ ...v, request_type: 'EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST' satisfies DoctorConsentRequestType }) }),
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
});
