// The token endpoint. The client's token manager is its only caller; it is in the table so the
// registry (and the contract-path test) sees it like any other path.
import { defineOperation, nameOperations } from '../operation';
import { tokenRequest, tokenResponse } from '../wire/auth';

export const authOperations = nameOperations('auth', {
  token: defineOperation({
    method: 'POST',
    path: '/api/v1/tenants/token',
    // Asking for a token twice does no harm: it may be retried like a read.
    safeToRepeat: true,
    auth: 'none',
    request: tokenRequest,
    encode: (v) => ({ body: { kind: 'form', value: { client_id: v.client_id, client_secret: v.client_secret, grant_type: v.grant_type } } }),
    response: { schema: tokenResponse },
  }),
});
