// Emergency (ECCIF): protocols, the doctor's OTP, the emergency authorize, and the claim created
// for an unidentified patient and identified later on the same path.
import { defineOperation, jsonBody, nameOperations } from '../operation';
import { confirmation } from '../wire/common';
import {
  createEmergencyClaimRequest,
  emergencyAuthorizeRequest,
  emergencyAuthorizeResponse,
  emergencyClaimResponse,
  emergencyDoctorOtpRequest,
  identifyEmergencyClaimRequest,
  protocolsQuery,
  protocolsResponse,
} from '../wire/emergency';

export const emergencyOperations = nameOperations('emergency', {
  protocols: defineOperation({
    method: 'GET',
    path: '/api/v1/claims/emergency/protocols',
    safeToRepeat: true,
    request: protocolsQuery,
    response: { schema: protocolsResponse },
  }),
  sendDoctorOtp: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/doctor-consent',
    safeToRepeat: false,
    request: emergencyDoctorOtpRequest,
    encode: (v) => ({ body: jsonBody({ is_emergency: true, ...v }) }),
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
  authorize: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/authorize',
    safeToRepeat: false,
    request: emergencyAuthorizeRequest,
    encode: (v) => ({ body: jsonBody({ is_emergency: true, ...v }) }),
    response: { schema: emergencyAuthorizeResponse },
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
});
