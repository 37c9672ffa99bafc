// POST /api/v1/tenants/token: client credentials in, a bearer token out (200 or 201).
import { z } from 'zod';
import { nonEmpty, optionalNumber, optionalText } from './common';

export const tokenRequest = z.strictObject({
  client_id: nonEmpty,
  client_secret: nonEmpty,
  grant_type: z.literal('client_credentials').default('client_credentials'),
});

/** Lifetime assumed when the exchange does not say: short, so a missing value costs a refresh, not a 401. */
export const assumedTokenLifetimeSeconds = 300;

export interface AccessToken {
  readonly accessToken: string;
  readonly expiresInSeconds: number;
  readonly tokenType: string;
}

/**
 * A token the client can send: it goes into an `Authorization: Bearer` header, whose value may hold
 * no line break or control character, and a space would end the token. Visible ASCII covers RFC
 * 6750's b64token and the JWTs the live service issues (wire-doc, "Authentication and headers"). A
 * token that breaks this would be taken as a sign-in and fail every later call as a network error.
 */
const usableToken = z
  .string()
  .min(1, 'is empty: no token to send')
  .max(16_384, 'is longer than any header the client may send')
  .regex(/^[\x21-\x7E]+$/, 'holds a space, a line break or a character a header cannot carry');

export const tokenResponse = z
  .looseObject({
    access_token: usableToken,
    // A lifetime that is there must be one: zero or less would make every call refresh the token
    // first (R's client refuses such an answer too). Absent, the client assumes a short one.
    expires_in: optionalNumber.refine((seconds) => seconds === undefined || seconds > 0, 'must be a positive number of seconds'),
    token_type: optionalText,
  })
  .transform(
    (t): AccessToken => ({
      accessToken: t.access_token,
      expiresInSeconds: t.expires_in ?? assumedTokenLifetimeSeconds,
      tokenType: t.token_type ?? 'Bearer',
    }),
  );
