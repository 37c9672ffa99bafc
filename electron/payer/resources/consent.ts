// Consent: contacts and OTPs, the patient's authorize shapes (OTP, fingerprint, visit end), the
// authorization look-up and reject, the doctor's preauth consent, the OTP whitelist.
import { defineOperation, jsonBody, nameOperations } from '../operation';
import { confirmation } from '../wire/common';
import {
  authorizationLookupResponse,
  authorizationQuery,
  authorizeBiometricRequest,
  authorizeBiometricResponse,
  authorizeDischargeRequest,
  authorizeDischargeResponse,
  authorizeOtpRequest,
  authorizeOtpResponse,
  contactsQuery,
  contactsResponse,
  dischargeOtpRequest,
  doctorConsentResendRequest,
  type DoctorConsentRequestType,
  otpSentResponse,
  otpWhitelistRequest,
  otpWhitelistResponse,
  otpWhitelistStatusQuery,
  rejectAuthorizationRequest,
  rejectAuthorizationResponse,
  sendOtpRequest,
} from '../wire/consent';
import { filePart, multipart } from './encode';

export const consentOperations = nameOperations('consent', {
  contacts: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/contacts',
    safeToRepeat: true,
    request: contactsQuery,
    response: { schema: contactsResponse },
  }),
  sendOtp: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/otp',
    safeToRepeat: false,
    request: sendOtpRequest,
    response: { schema: otpSentResponse, textBody: true },
  }),
  sendDischargeOtp: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/otp/discharge',
    safeToRepeat: false,
    request: dischargeOtpRequest,
    response: { schema: otpSentResponse, textBody: true },
  }),
  authorizeOtp: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/authorize',
    safeToRepeat: false,
    request: authorizeOtpRequest,
    response: { schema: authorizeOtpResponse },
  }),
  authorizeBiometric: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/authorize',
    safeToRepeat: false,
    request: authorizeBiometricRequest,
    encode: (v) => ({ body: jsonBody({ ...v, is_emergency: false, is_biometrics_discharge_authorization: false }) }),
    response: { schema: authorizeBiometricResponse },
  }),
  authorizeDischarge: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/authorize',
    safeToRepeat: false,
    request: authorizeDischargeRequest,
    encode: (v) => ({ body: jsonBody({ ...v, is_emergency: false, is_biometrics_discharge_authorization: true }) }),
    response: { schema: authorizeDischargeResponse },
  }),
  getAuthorization: defineOperation({
    method: 'GET',
    path: '/api/v1/claims/authorizations',
    safeToRepeat: true,
    request: authorizationQuery,
    response: { schema: authorizationLookupResponse },
  }),
  rejectAuthorization: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/authorizations/{token}/reject',
    safeToRepeat: false,
    request: rejectAuthorizationRequest,
    encode: (v) => ({ params: { token: v.token } }),
    response: { schema: rejectAuthorizationResponse, emptyBody: true },
  }),
  resendDoctorConsent: defineOperation({
    method: 'POST',
    path: '/api/v1/claims/doctor-consent',
    safeToRepeat: false,
    request: doctorConsentResendRequest,
    encode: (v) => ({ body: jsonBody({ ...v, request_type: 'PREAUTH_DOCTOR_APPROVAL_REQUEST' satisfies DoctorConsentRequestType }) }),
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
  requestOtpWhitelist: defineOperation({
    method: 'POST',
    path: '/api/v1/patients/otp-whitelists',
    safeToRepeat: false,
    request: otpWhitelistRequest,
    encode: ({ attachment, ...fields }) => ({
      body: multipart(fields, attachment === undefined ? [] : [filePart('attachment', attachment)]),
    }),
    response: { schema: otpWhitelistResponse },
  }),
  otpWhitelistStatus: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/otp-whitelists/callback',
    safeToRepeat: true,
    request: otpWhitelistStatusQuery,
    response: { schema: otpWhitelistResponse },
  }),
});
