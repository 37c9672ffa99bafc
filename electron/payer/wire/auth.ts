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

export const tokenResponse = z
  .looseObject({
    access_token: z.string().min(1),
    expires_in: optionalNumber,
    token_type: optionalText,
  })
  .transform(
    (t): AccessToken => ({
      accessToken: t.access_token,
      expiresInSeconds: t.expires_in !== undefined && t.expires_in > 0 ? t.expires_in : assumedTokenLifetimeSeconds,
      tokenType: t.token_type ?? 'Bearer',
    }),
  );
