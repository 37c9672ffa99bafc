// Status-callback registration: endpoints per tenant (facility code) and the operations that make
// an endpoint receive anything.
import { z } from 'zod';
import { nonEmpty, oneOrMany, optionalText, text } from './common';

const httpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL' });

export const listEndpointsQuery = z.strictObject({ tenant: nonEmpty });
export const createEndpointRequest = z.strictObject({ tenant: nonEmpty, url: httpUrl, name: nonEmpty.optional() });
export const updateEndpointRequest = z
  .strictObject({ endpoint_id: nonEmpty, url: httpUrl.optional(), name: nonEmpty.optional() })
  .superRefine((v, ctx) => {
    if (v.url === undefined && v.name === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'give url or name to change' });
  });
export const deleteEndpointRequest = z.strictObject({ endpoint_id: nonEmpty });
export const createOperationRequest = z.strictObject({
  tenant: nonEmpty,
  endpoint_id: nonEmpty,
  name: nonEmpty,
  /** The path appended to the endpoint's URL on delivery. */
  path: z.string().startsWith('/', 'a path starting with /'),
  action: z.literal('status_changed').default('status_changed'),
  method: z.literal('POST').default('POST'),
  request_content_type: z.literal('application/json').default('application/json'),
});

export interface CallbackEndpoint {
  readonly id: string;
  readonly url: string | undefined;
  readonly name: string | undefined;
  /** Shown once, at creation: keep it to verify X-Exchange-Signature. */
  readonly signingSecret: string | undefined;
}

export const endpoint = z
  .looseObject({ id: text, url: optionalText, name: optionalText, signing_secret: optionalText })
  .transform((e): CallbackEndpoint => ({ id: e.id, url: e.url, name: e.name, signingSecret: e.signing_secret }));

export const endpointsResponse = oneOrMany(endpoint);

export interface CallbackOperation {
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly action: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
}

export const operationResponse = z
  .looseObject({ id: optionalText, name: optionalText, action: optionalText, method: optionalText, path: optionalText })
  .transform((o): CallbackOperation => ({ id: o.id, name: o.name, action: o.action, method: o.method, path: o.path }));
