// Authentication (the token endpoint) and the status-callback endpoints of a tenant.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callbackAuthTypes, callbackEntityTypes, callbackEnvironments } from '../../vocabulary';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import type { EndpointRecord, OperationRecord } from '../state/store';
import { TOKEN_LIFETIME_S, tenantOf } from '../tenancy';
import { parse, text } from '../validation';
import { API_CLIENTS } from '../world/facilities';

const tokenRequest = z.object({
  client_id: text,
  client_secret: text,
  grant_type: z.literal('client_credentials', "only 'client_credentials' is supported").optional(),
});

export function tokenRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // Form-encoded [doc] or JSON: both arrive here as an object. 200, as UAT answers R's client, which
  // takes nothing else (R infrastructure/auth.py, CHANGELOG "verified against DHA UAT"); V's copy of
  // the portal says 201, which the exchange client accepts too.
  app.post('/tenants/token', async (request) => {
    const body = parse(tokenRequest, request.body);
    const client = API_CLIENTS.find((c) => c.clientId === body.client_id && c.clientSecret === body.client_secret);
    if (client === undefined) throw fail.invalidClient();
    const token = `${ctx.rng.code(8)}.${ctx.rng.bytes(24).toString('base64url')}`;
    ctx.state.tokens.set(token, {
      clientId: client.clientId,
      facilityCode: client.facilityCode,
      expiresAt: ctx.now() + TOKEN_LIFETIME_S * 1000,
    });
    return { access_token: token, expires_in: TOKEN_LIFETIME_S, token_type: 'Bearer' };
  });
}

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

// The shapes of R `domain/callbacks.py` (written from the exchange's page that specifies them).
const entityType = z.enum(callbackEntityTypes);
const environment = z.enum(callbackEnvironments, "one of 'production', 'sandbox' (not 'prod')");
const authType = z.enum(callbackAuthTypes);
const headers = z.record(z.string().trim().min(1).max(100), z.string().max(2000));
const timeoutMs = z.number().int().min(1).max(600_000);
const secretRefRule = (v: { auth_type?: string | undefined; secret_ref?: string | undefined }) =>
  v.auth_type === undefined || v.auth_type === 'none' || (v.secret_ref ?? '') !== '';
const secretRefProblem = { path: ['secret_ref'], message: 'every auth_type but none needs the secret_ref the exchange issued' };

const endpointCreate = z
  .object({
    name: text,
    base_url: httpUrl,
    entity_type: entityType,
    environment,
    auth_type: authType.default('none'),
    secret_ref: text.optional(),
    facility_fr_code: text.optional(),
    tenant_code: text.optional(),
    timeout_ms: timeoutMs.optional(),
    headers: headers.optional(),
  })
  .refine(secretRefRule, secretRefProblem);
const endpointPatch = z
  .object({
    name: text.optional(),
    base_url: httpUrl.optional(),
    entity_type: entityType.optional(),
    environment: environment.optional(),
    auth_type: authType.optional(),
    secret_ref: text.optional(),
    tenant_code: text.optional(),
    timeout_ms: timeoutMs.optional(),
    headers: headers.optional(),
    is_active: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'send at least one field to change')
  .refine(secretRefRule, secretRefProblem);
const operationCreate = z
  .object({
    name: text,
    action: z.literal('status_changed', "the only action is 'status_changed'"),
    method: z.literal('POST', 'callbacks are delivered with POST'),
    path: z.string().trim().max(500).regex(/^\/\S*$/, "a path starting with '/'").optional(),
    path_url_override: httpUrl.optional(),
    request_content_type: z.literal('application/json', 'callbacks are JSON').default('application/json'),
    timeout_ms: timeoutMs.optional(),
    headers: headers.optional(),
  })
  .refine((v) => v.path !== undefined || v.path_url_override !== undefined, { path: ['path'], message: 'send path or path_url_override' });
const endpointList = z.object({ entity_type: entityType.optional() });

function endpointView(e: EndpointRecord) {
  return {
    endpoint_id: e.id,
    name: e.name,
    base_url: e.base_url,
    entity_type: e.entity_type,
    environment: e.environment,
    auth_type: e.auth_type,
    is_active: e.is_active,
    facility_fr_code: e.facility,
    ...(e.tenant_code === null ? {} : { tenant_code: e.tenant_code }),
    ...(e.timeout_ms === null ? {} : { timeout_ms: e.timeout_ms }),
    headers: e.headers,
  };
}

function operationView(o: OperationRecord) {
  return {
    operation_id: o.id,
    name: o.name,
    action: o.action,
    method: o.method,
    ...(o.path === null ? {} : { path: o.path }),
    ...(o.path_url_override === null ? {} : { path_url_override: o.path_url_override }),
    is_active: true,
    request_content_type: o.request_content_type,
    ...(o.timeout_ms === null ? {} : { timeout_ms: o.timeout_ms }),
    headers: o.headers,
  };
}

export function callbackEndpointRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const ownFacility = (request: Parameters<typeof tenantOf>[0], code: string) => {
    const facility = tenantOf(request);
    if (code !== facility.code) throw fail.forbidden(`Endpoints of ${code} belong to another tenant`);
    return facility;
  };
  const ownEndpoint = (request: Parameters<typeof tenantOf>[0], id: string): EndpointRecord => {
    const facility = tenantOf(request);
    const endpoint = ctx.state.endpoints.get(id);
    if (endpoint === undefined || endpoint.facility !== facility.code) throw fail.notFound(`No callback endpoint ${id}`);
    return endpoint;
  };

  app.post<{ Params: { code: string } }>('/tenants/:code/endpoints', async (request, reply) => {
    const facility = ownFacility(request, request.params.code);
    const body = parse(endpointCreate, request.body);
    const endpoint: EndpointRecord = {
      id: ctx.rng.uuid(),
      facility: facility.code,
      name: body.name,
      base_url: body.base_url,
      entity_type: body.entity_type,
      environment: body.environment,
      auth_type: body.auth_type,
      secret_ref: body.secret_ref ?? null,
      tenant_code: body.tenant_code ?? null,
      timeout_ms: body.timeout_ms ?? null,
      headers: body.headers ?? {},
      is_active: true,
      signing_secret: `whsec_${ctx.rng.bytes(24).toString('base64url')}`,
      operations: [],
      created_at: ctx.now(),
    };
    ctx.state.endpoints.set(endpoint.id, endpoint);
    // The signing secret (ours) is shown here once and never again.
    return reply.code(201).send({ ...endpointView(endpoint), signing_secret: endpoint.signing_secret });
  });

  // A bare array, as R saw the listings.
  app.get<{ Params: { code: string } }>('/tenants/:code/endpoints', async (request) => {
    const facility = ownFacility(request, request.params.code);
    const query = parse(endpointList, request.query, 'query');
    return [...ctx.state.endpoints.values()]
      .filter((e) => e.facility === facility.code && (query.entity_type === undefined || e.entity_type === query.entity_type))
      .map(endpointView);
  });

  app.patch<{ Params: { id: string } }>('/tenants/endpoints/:id', async (request) => {
    const endpoint = ownEndpoint(request, request.params.id);
    const body = parse(endpointPatch, request.body);
    if (body.name !== undefined) endpoint.name = body.name;
    if (body.base_url !== undefined) endpoint.base_url = body.base_url;
    if (body.entity_type !== undefined) endpoint.entity_type = body.entity_type;
    if (body.environment !== undefined) endpoint.environment = body.environment;
    if (body.auth_type !== undefined) endpoint.auth_type = body.auth_type;
    if (body.secret_ref !== undefined) endpoint.secret_ref = body.secret_ref;
    if (body.tenant_code !== undefined) endpoint.tenant_code = body.tenant_code;
    if (body.timeout_ms !== undefined) endpoint.timeout_ms = body.timeout_ms;
    if (body.headers !== undefined) endpoint.headers = body.headers;
    if (body.is_active !== undefined) endpoint.is_active = body.is_active;
    if (endpoint.auth_type !== 'none' && endpoint.secret_ref === null) throw fail.field('secret_ref', secretRefProblem.message);
    return endpointView(endpoint);
  });

  app.delete<{ Params: { id: string } }>('/tenants/endpoints/:id', async (request, reply) => {
    const endpoint = ownEndpoint(request, request.params.id);
    ctx.state.endpoints.delete(endpoint.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { code: string; id: string } }>('/tenants/:code/endpoints/:id/operations', async (request, reply) => {
    ownFacility(request, request.params.code);
    const endpoint = ownEndpoint(request, request.params.id);
    const body = parse(operationCreate, request.body);
    const operation: OperationRecord = {
      id: ctx.rng.uuid(),
      name: body.name,
      action: body.action,
      method: body.method,
      path: body.path ?? null,
      path_url_override: body.path_url_override ?? null,
      request_content_type: body.request_content_type,
      timeout_ms: body.timeout_ms ?? null,
      headers: body.headers ?? {},
      created_at: ctx.now(),
    };
    endpoint.operations.push(operation);
    return reply.code(201).send(operationView(operation));
  });

  app.get<{ Params: { code: string; id: string } }>('/tenants/:code/endpoints/:id/operations', async (request) => {
    ownFacility(request, request.params.code);
    return ownEndpoint(request, request.params.id).operations.map(operationView);
  });

  // Once an operation has an id it is addressed without tenant or endpoint (R).
  app.delete<{ Params: { operationId: string } }>('/tenants/endpoints/operations/:operationId', async (request, reply) => {
    const facility = tenantOf(request);
    for (const endpoint of ctx.state.endpoints.values()) {
      const index = endpoint.facility === facility.code ? endpoint.operations.findIndex((o) => o.id === request.params.operationId) : -1;
      if (index < 0) continue;
      endpoint.operations.splice(index, 1);
      return reply.code(204).send();
    }
    throw fail.notFound(`No callback operation ${request.params.operationId}`);
  });
}
