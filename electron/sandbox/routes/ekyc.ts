// The authorization page served at the link the biometric authorize hands out, and the two calls
// it makes: its session (status, time left) and the capture it posts. The embed token from the link
// authorizes both; matching is the same function the control API uses.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { fingerLabel, fingerLabelSw, pageCsp, renderAuthorizationPage, renderErrorPage, type PageSession } from '../page/authorization-page';
import { MAX_MISMATCHES, presentFingerprint } from '../state/consent';
import type { AuthorizationRecord } from '../state/store';
import { parse } from '../validation';
import { facilityByCode } from '../world/facilities';
import { maskName, patientByCrId } from '../world/patients';
import { templateField } from './control';

type Params = { Params: { requestId: string }; Querystring: { t?: string } };

const captureRequest = z.object({
  template: templateField,
  deviceId: z.string().max(200).optional(),
  protocol: z.string().max(50).optional(),
  templateBytes: z.number().int().optional(),
});

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function ekycRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const find = (request: FastifyRequest<Params>): AuthorizationRecord | undefined => {
    const token = typeof request.query.t === 'string' ? request.query.t : '';
    for (const a of ctx.state.authorizations.values()) {
      if (a.ekyc !== null && a.ekyc.requestId === request.params.requestId && sameSecret(a.ekyc.embedToken, token)) return a;
    }
    return undefined;
  };
  const session = (a: AuthorizationRecord): PageSession => {
    ctx.sweep();
    const patient = patientByCrId(a.patient_id ?? '');
    return {
      status: a.status,
      label: a.label,
      facility_name: facilityByCode(a.facility)?.name ?? a.facility,
      patient_name: patient === undefined ? '' : maskName(patient.fullName),
      patient_id: a.patient_id ?? '',
      fingers: (patient?.fingers ?? []).map((finger) => ({ finger, label: fingerLabel(finger), label_sw: fingerLabelSw(finger) })),
      expires_at: a.expires_at === null ? null : iso(a.expires_at),
      expires_in_ms: a.status === 'PENDING' && a.expires_at !== null ? Math.max(0, a.expires_at - ctx.now()) : 0,
      attempts_left: Math.max(0, MAX_MISMATCHES - a.mismatches),
      reason: a.reason,
      device_service_url: ctx.config.deviceServiceUrl,
    };
  };
  const secureHeaders = (reply: FastifyReply, nonce: string) =>
    reply
      .header('content-security-policy', pageCsp(nonce, ctx.config.deviceServiceUrl, ctx.config.frameAncestors))
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('permissions-policy', 'camera=(), microphone=(), geolocation=()')
      .header('cache-control', 'no-store');

  app.get<Params>('/authorize/:requestId', async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    secureHeaders(reply, nonce);
    const a = find(request);
    if (a === undefined) {
      return reply.code(404).type('text/html; charset=utf-8').send(renderErrorPage(nonce, 'invalid'));
    }
    const base = `${ctx.baseUrl}/ekyc/authorize/${encodeURIComponent(request.params.requestId)}`;
    const t = encodeURIComponent(request.query.t ?? '');
    return reply
      .type('text/html; charset=utf-8')
      .send(renderAuthorizationPage({ nonce, session: session(a), sessionUrl: `${base}/session?t=${t}`, captureUrl: `${base}/capture?t=${t}` }));
  });

  app.get<Params>('/authorize/:requestId/session', async (request, reply) => {
    const a = find(request);
    if (a === undefined) throw fail.notFound('No verification request with that link');
    void reply.header('cache-control', 'no-store');
    return session(a);
  });

  app.post<Params>('/authorize/:requestId/capture', async (request) => {
    const a = find(request);
    if (a === undefined) throw fail.notFound('No verification request with that link');
    const body = parse(captureRequest, request.body);
    const outcome = presentFingerprint(ctx, a, Buffer.from(body.template, 'base64'));
    return { ...outcome, session: session(a) };
  });
}
