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
  otpSentResponse,
  otpWhitelistAttachments,
  otpWhitelistFilePart,
  otpWhitelistRequest,
  otpWhitelistResponse,
  otpWhitelistStatusQuery,
  otpWhitelistStatusResponse,
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
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
  requestOtpWhitelist: defineOperation({
    method: 'POST',
    path: '/api/v1/patients/otp-whitelists',
    safeToRepeat: false,
    request: otpWhitelistRequest,
    encode: ({ attachment, ...fields }) => ({
      body: multipart(
        { ...fields, attachments: otpWhitelistAttachments(attachment) },
        attachment === undefined ? [] : [filePart(otpWhitelistFilePart, attachment.file)],
      ),
    }),
    response: { schema: otpWhitelistResponse },
  }),
  otpWhitelistStatus: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/otp-whitelists/callback',
    safeToRepeat: true,
    request: otpWhitelistStatusQuery,
    response: { schema: otpWhitelistStatusResponse },
  }),
});
