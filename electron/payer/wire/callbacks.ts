// Status-callback registration (docs/exchange-wire.md, "Status callbacks"): endpoints per tenant
// (facility code), one per entity type, and the operations without which an endpoint receives
// nothing. The shapes are R's (`domain/callbacks.py`, `schemas/callbacks.py`, its wire tests),
// written from the exchange's page that specifies them.
import { z } from 'zod';
import { callbackAuthTypes, callbackEntityTypes, callbackEnvironments } from '../../vocabulary';
import { isRecord, nonEmpty, optionalBoolean, optionalNumber, optionalText } from './common';

const httpUrl = z.url({ protocol: /^https?$/, error: 'an absolute http(s) URL the exchange can reach' });


const headerMap = z.record(z.string().min(1), z.string());
const timeoutMs = z.number().int().min(1).max(600_000);

type Issues = { addIssue: (issue: { code: 'custom'; message: string; path: (string | number)[] }) => void };

function requireSecretRef(v: { auth_type?: string | undefined; secret_ref?: string | undefined }, ctx: Issues): void {
  if (v.auth_type !== undefined && v.auth_type !== 'none' && v.secret_ref === undefined) {
    ctx.addIssue({ code: 'custom', path: ['secret_ref'], message: `auth_type ${v.auth_type} needs the secret_ref the exchange issued` });
  }
}

export const listEndpointsQuery = z.strictObject({ tenant: nonEmpty, entity_type: z.enum(callbackEntityTypes).optional() });

export const createEndpointRequest = z
  .strictObject({
    tenant: nonEmpty,
    name: nonEmpty,
    base_url: httpUrl,
    entity_type: z.enum(callbackEntityTypes),
    environment: z.enum(callbackEnvironments),
    auth_type: z.enum(callbackAuthTypes).default('none'),
    secret_ref: nonEmpty.optional(),
    facility_fr_code: nonEmpty.optional(),
    tenant_code: nonEmpty.optional(),
    timeout_ms: timeoutMs.optional(),
    headers: headerMap.optional(),
  })
  .superRefine(requireSecretRef);

export const updateEndpointRequest = z
  .strictObject({
    endpoint_id: nonEmpty,
    name: nonEmpty.optional(),
    base_url: httpUrl.optional(),
    entity_type: z.enum(callbackEntityTypes).optional(),
    environment: z.enum(callbackEnvironments).optional(),
    auth_type: z.enum(callbackAuthTypes).optional(),
    secret_ref: nonEmpty.optional(),
    tenant_code: nonEmpty.optional(),
    timeout_ms: timeoutMs.optional(),
    /** Replaces the whole map. */
    headers: headerMap.optional(),
    /** false pauses delivery without deleting anything. */
    is_active: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    // An empty PATCH is a 400 at the exchange (R).
    if (Object.keys(v).every((k) => k === 'endpoint_id')) ctx.addIssue({ code: 'custom', path: ['name'], message: 'give at least one field to change' });
    requireSecretRef(v, ctx);
  });

export const deleteEndpointRequest = z.strictObject({ endpoint_id: nonEmpty });

export const createOperationRequest = z
  .strictObject({
    tenant: nonEmpty,
    endpoint_id: nonEmpty,
    name: nonEmpty,
    /** The only action the exchange defines for status callbacks. */
    action: z.literal('status_changed').default('status_changed'),
    /** DELETE is accepted at registration and fails every delivery (R): POST only. */
    method: z.literal('POST').default('POST'),
    /** Appended to the endpoint's base_url on delivery. */
    path: z.string().startsWith('/', 'a path starting with /').optional(),
    /** An absolute URL that replaces base_url and path. */
    path_url_override: httpUrl.optional(),
    request_content_type: z.literal('application/json').default('application/json'),
    timeout_ms: timeoutMs.optional(),
    headers: headerMap.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.path === undefined && v.path_url_override === undefined) ctx.addIssue({ code: 'custom', path: ['path'], message: 'give path or path_url_override' });
  });

export interface CallbackEndpoint {
  /** `endpoint_id` (the exchange's name) or `id`: what every later call is keyed on. */
  readonly id: string;
  readonly name: string | undefined;
  readonly baseUrl: string | undefined;
  readonly entityType: string | undefined;
  readonly environment: string | undefined;
  readonly authType: string | undefined;
  readonly active: boolean | undefined;
  readonly facilityCode: string | undefined;
  /**
   * The sandbox's own HMAC key for X-Exchange-Signature, shown once at creation. The exchange
   * documents no signing: undefined there.
   */
  readonly signingSecret: string | undefined;
}

export const endpoint = z
  .looseObject({
    endpoint_id: optionalText,
    id: optionalText,
    name: optionalText,
    base_url: optionalText,
    entity_type: optionalText,
    environment: optionalText,
    auth_type: optionalText,
    is_active: optionalBoolean,
    facility_fr_code: optionalText,
    signing_secret: optionalText,
  })
  .refine((e) => (e.endpoint_id ?? e.id) !== undefined, { message: 'endpoint without endpoint_id', path: ['endpoint_id'] })
  .transform(
    (e): CallbackEndpoint => ({
      id: String(e.endpoint_id ?? e.id),
      name: e.name,
      baseUrl: e.base_url,
      entityType: e.entity_type,
      environment: e.environment,
      authType: e.auth_type,
      active: e.is_active,
      facilityCode: e.facility_fr_code,
      signingSecret: e.signing_secret,
    }),
  );

const endpoints = z.array(endpoint);

/** A bare array (R: the listings), or `{results}` / `{data}` (R tolerates both). */
export const endpointsResponse = z.unknown().transform((body, ctx): CallbackEndpoint[] => {
  const key = isRecord(body) ? (['results', 'data'] as const).find((k) => Array.isArray(body[k])) : undefined;
  const candidates = key !== undefined && isRecord(body) ? body[key] : body;
  const parsed = endpoints.safeParse(candidates);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [...(key === undefined ? [] : [key]), ...issue.path], message: issue.message, input: body });
  return z.NEVER;
});

export interface CallbackOperation {
  readonly id: string;
  readonly name: string | undefined;
  readonly action: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly pathUrlOverride: string | undefined;
  readonly active: boolean | undefined;
  readonly timeoutMs: number | undefined;
}

export const operationResponse = z
  .looseObject({
    operation_id: optionalText,
    id: optionalText,
    name: optionalText,
    action: optionalText,
    method: optionalText,
    path: optionalText,
    path_url_override: optionalText,
    is_active: optionalBoolean,
    timeout_ms: optionalNumber,
  })
  .refine((o) => (o.operation_id ?? o.id) !== undefined, { message: 'operation without operation_id', path: ['operation_id'] })
  .transform(
    (o): CallbackOperation => ({
      id: String(o.operation_id ?? o.id),
      name: o.name,
      action: o.action,
      method: o.method,
      path: o.path,
      pathUrlOverride: o.path_url_override,
      active: o.is_active,
      timeoutMs: o.timeout_ms,
    }),
  );
