// Tenant context of an exchange call: the bearer token names a facility (or, for a service
// account, the X-Facility-Id header does). Without one the live service answers 403 with its
// "Tenant context required" body [doc]; an expired token is a 401 TOKEN_EXPIRED.
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { fail } from './errors';
import { facilityByCode, type Facility } from './world/facilities';

export const TOKEN_LIFETIME_S = 3600;

const tenants = new WeakMap<FastifyRequest, Facility>();

/** A request header's value (the first, if sent more than once). */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function authenticate(ctx: SandboxContext, request: FastifyRequest): void {
  const authorization = header(request, 'authorization');
  const match = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const issued = match?.[1] === undefined ? undefined : ctx.state.tokens.get(match[1]);
  if (issued === undefined) throw fail.tenantRequired();
  if (issued.expiresAt <= ctx.now()) throw fail.tokenExpired();

  const facilityId = header(request, 'x-facility-id')?.trim();
  const facilityIdType = header(request, 'x-facility-id-type')?.trim();
  if (facilityIdType !== undefined && facilityIdType.toLowerCase() !== 'fr-code') {
    throw fail.field('X-Facility-Id-Type', "only 'fr-code' is accepted");
  }
  let facility: Facility | undefined;
  if (issued.facilityCode === null) {
    // A service account has no tenant of its own: the facility header is its tenant context.
    if (facilityId === undefined || facilityId === '') throw fail.tenantRequired();
    facility = facilityByCode(facilityId);
    if (facility === undefined) throw fail.forbidden(`X-Facility-Id ${facilityId} is not a facility this client may act for`);
  } else {
    if (facilityId !== undefined && facilityId !== '' && facilityId !== issued.facilityCode) {
      throw fail.forbidden(`X-Facility-Id ${facilityId} is not the facility of this token`);
    }
    facility = facilityByCode(issued.facilityCode);
    if (facility === undefined) throw fail.tenantRequired();
  }
  tenants.set(request, facility);
}

export function tenantOf(request: FastifyRequest): Facility {
  const facility = tenants.get(request);
  if (facility === undefined) throw fail.tenantRequired();
  return facility;
}
