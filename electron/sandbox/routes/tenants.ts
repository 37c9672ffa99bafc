// Authentication (the token endpoint) and the status-callback endpoints of a tenant.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import type { EndpointRecord } from '../state/store';
import { TOKEN_LIFETIME_S, tenantOf } from '../tenancy';
import { parse, text } from '../validation';
import { API_CLIENTS } from '../world/facilities';

const tokenRequest = z.object({
  client_id: text,
  client_secret: text,
  grant_type: z.literal('client_credentials', "only 'client_credentials' is supported").optional(),
});

export function tokenRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // Form-encoded [doc] or JSON: both arrive here as an object.
  app.post('/tenants/token', async (request, reply) => {
    const body = parse(tokenRequest, request.body);
    const client = API_CLIENTS.find((c) => c.clientId === body.client_id && c.clientSecret === body.client_secret);
    if (client === undefined) throw fail.invalidClient();
    const token = `${ctx.rng.code(8)}.${ctx.rng.bytes(24).toString('base64url')}`;
    ctx.state.tokens.set(token, {
      clientId: client.clientId,
      facilityCode: client.facilityCode,
      expiresAt: ctx.now() + TOKEN_LIFETIME_S * 1000,
    });
    return reply.code(201).send({ access_token: token, expires_in: TOKEN_LIFETIME_S, token_type: 'Bearer' });
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

const endpointCreate = z.object({ url: httpUrl, name: z.string().trim().max(200).optional() });
const endpointPatch = z
  .object({ url: httpUrl.optional(), name: z.string().trim().max(200).optional(), active: z.boolean().optional() })
  .refine((v) => v.url !== undefined || v.name !== undefined || v.active !== undefined, 'send url, name or active');
const operationCreate = z.object({
  name: text,
  action: z.literal('status_changed', "the only action is 'status_changed'"),
  method: z.literal('POST', 'callbacks are delivered with POST'),
  path: z.string().trim().max(500).regex(/^\/\S*$/, "a path starting with '/'"),
  request_content_type: z.literal('application/json', 'callbacks are JSON').default('application/json'),
});

function endpointView(e: EndpointRecord) {
  return {
    id: e.id,
    url: e.url,
    name: e.name,
    active: e.active,
    facility_fr_code: e.facility,
    operations: e.operations.map((o) => ({ ...o, created_at: iso(o.created_at), endpoint_id: e.id })),
    created_at: iso(e.created_at),
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
      url: body.url,
      name: body.name ?? 'status callbacks',
      active: true,
      signing_secret: `whsec_${ctx.rng.bytes(24).toString('base64url')}`,
      operations: [],
      created_at: ctx.now(),
    };
    ctx.state.endpoints.set(endpoint.id, endpoint);
    // The signing secret is shown here once and never again.
    return reply.code(201).send({ id: endpoint.id, url: endpoint.url, name: endpoint.name, signing_secret: endpoint.signing_secret });
  });

  app.get<{ Params: { code: string } }>('/tenants/:code/endpoints', async (request) => {
    const facility = ownFacility(request, request.params.code);
    const results = [...ctx.state.endpoints.values()].filter((e) => e.facility === facility.code).map(endpointView);
    return { count: results.length, results };
  });

  app.patch<{ Params: { id: string } }>('/tenants/endpoints/:id', async (request) => {
    const endpoint = ownEndpoint(request, request.params.id);
    const body = parse(endpointPatch, request.body);
    if (body.url !== undefined) endpoint.url = body.url;
    if (body.name !== undefined) endpoint.name = body.name;
    if (body.active !== undefined) endpoint.active = body.active;
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
    const operation = { id: ctx.rng.uuid(), ...body, created_at: ctx.now() };
    endpoint.operations.push(operation);
    return reply.code(201).send({ ...operation, created_at: iso(operation.created_at), endpoint_id: endpoint.id });
  });

  app.delete<{ Params: { id: string; operationId: string } }>('/tenants/endpoints/:id/operations/:operationId', async (request, reply) => {
    const endpoint = ownEndpoint(request, request.params.id);
    const index = endpoint.operations.findIndex((o) => o.id === request.params.operationId);
    if (index < 0) throw fail.notFound(`No operation ${request.params.operationId} on endpoint ${endpoint.id}`);
    endpoint.operations.splice(index, 1);
    return reply.code(204).send();
  });
}
