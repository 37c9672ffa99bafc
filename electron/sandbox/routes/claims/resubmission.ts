// A claim the payer returned: sent back (resubmitted) and its lines corrected meanwhile.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../../clock';
import type { SandboxContext } from '../../context';
import { fail } from '../../errors';
import { tenantOf } from '../../tenancy';
import { byConsentToken, money, parse, text } from '../../validation';
import { lineView } from '../../views';
import { requireClaim, requireEditable } from '../shared';
import { resubmitReturned } from './records';

/** The portal and R name the line `line_id`; the exchange's Postman collection `claim_line_id`: either is taken. */
const lineEdit = z
  .object({
    line_id: text.optional(),
    claim_line_id: text.optional(),
    quantity: z.coerce.number().int('a whole number').positive().max(10_000).optional(),
    unit_price: money.optional(),
    scheme_code: text.optional(),
  })
  .refine((v) => v.line_id !== undefined || v.claim_line_id !== undefined, { path: ['line_id'], message: 'line_id is required' })
  .refine((v) => [v.quantity, v.unit_price, v.scheme_code].some((x) => x !== undefined), {
    path: ['quantity'],
    message: 'send at least one of quantity, unit_price, scheme_code',
  });

export function resubmissionRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // The portal's path (and R's); the exchange's Postman collection posts /claims/resubmit: both are
  // answered with the portal's line answer. A's form (POST /claims/submit {consent_token}) is in dispatch.ts.
  for (const path of ['/claims/lines/resubmit', '/claims/resubmit']) {
    app.post(path, async (request) => {
      const facility = tenantOf(request);
      const body = parse(byConsentToken, request.body);
      const claim = requireClaim(ctx, facility, body.consent_token);
      const goesBack = resubmitReturned(ctx, claim);
      const [first] = claim.lines;
      return {
        ...(first === undefined ? {} : { line_id: first.line_guid }),
        status: claim.workflow_state,
        message: goesBack ? 'Claim resubmitted' : 'Claim reopened for resubmission',
        resubmitted_at: iso(ctx.now()),
      };
    });
  }

  app.patch('/claims/lines/edit', async (request) => {
    const facility = tenantOf(request);
    const body = parse(lineEdit, request.body);
    const lineId = body.line_id ?? body.claim_line_id ?? '';
    const claim = [...ctx.state.claims.values()].find((c) => c.facility === facility.code && c.lines.some((l) => l.line_guid === lineId));
    if (claim === undefined) throw fail.notFound(`No line ${lineId} on a claim of ${facility.code}`);
    requireEditable(claim);
    const line = claim.lines.find((l) => l.line_guid === lineId);
    if (line === undefined) throw fail.notFound(`No line ${lineId}`);
    if (body.unit_price !== undefined) line.unit_price = body.unit_price;
    if (body.quantity !== undefined) line.quantity = body.quantity;
    if (body.scheme_code !== undefined) line.scheme_code = body.scheme_code;
    return lineView(claim, line);
  });
}
