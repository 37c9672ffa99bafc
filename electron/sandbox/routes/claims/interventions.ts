// The interventions of an open claim (or of a consent before its visit): switching one for another.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { fail } from '../../errors';
import { finalisedPreauthFor, requireFitsServiceType, requireInterventions } from '../../state/consent';
import { tenantOf } from '../../tenancy';
import { parse, text } from '../../validation';
import { requireEditable } from '../shared';
import { isoDate } from './records';

const interventionSwitch = z
  .object({
    consent_token: text,
    existing_intervention_code: text,
    new_intervention_code: text,
    retain_bill_items: z.boolean(),
    bill_from: isoDate.optional(),
    bill_to: isoDate.optional(),
  })
  .superRefine((v, ctx) => {
    // Kept bill items move over a period; without one retained the switch needs no dates (R WORKFLOWS; A refuses the first).
    if (!v.retain_bill_items) return;
    for (const field of ['bill_from', 'bill_to'] as const) {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `required when retain_bill_items is true` });
    }
  });

export function interventionRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/claims/interventions/switch', async (request) => {
    const facility = tenantOf(request);
    const body = parse(interventionSwitch, request.body);
    const [next] = requireInterventions([body.new_intervention_code]);
    if (next === undefined) throw fail.field('new_intervention_code', 'required');
    const claim = ctx.state.claimByToken(facility.code, body.consent_token);
    if (claim === undefined) {
      // Before a visit, the switch applies to the consent (authorization) itself.
      const a = ctx.state.authorizationByToken(facility.code, body.consent_token);
      if (a === undefined) throw fail.notFound('No claim or authorization with that consent_token at this facility');
      if (!a.interventions.includes(body.existing_intervention_code)) throw fail.notFound(`${body.existing_intervention_code} is not on the authorization`);
      const hasPreauth = [...ctx.state.preauths.values()].some(
        (p) => p.authorization_guid === a.guid && p.intervention_code === body.existing_intervention_code && p.status !== 'CANCELLED',
      );
      if (hasPreauth) throw fail.conflict('PREAUTH_NOT_EDITABLE', 'Cancel the preauthorization of the intervention before switching it');
      a.interventions = a.interventions.map((c) => (c === body.existing_intervention_code ? next.intervention_code : c));
      return { data: {}, message: 'Intervention switched' };
    }
    requireEditable(claim);
    if (!claim.interventions.includes(body.existing_intervention_code)) throw fail.notFound(`${body.existing_intervention_code} is not on the claim`);
    requireFitsServiceType([next], claim.service_type);
    if (next.needsPreauth && finalisedPreauthFor(ctx, facility, claim.patient_id ?? '', next.intervention_code) === undefined) {
      throw fail.rule('PREAUTH_REQUIRED', `${next.intervention_code} needs a FINALISED preauthorization`);
    }
    claim.interventions = [...new Set(claim.interventions.map((c) => (c === body.existing_intervention_code ? next.intervention_code : c)))];
    claim.lines = body.retain_bill_items
      ? claim.lines.map((l) => (l.intervention_code === body.existing_intervention_code ? { ...l, intervention_code: next.intervention_code } : l))
      : claim.lines.filter((l) => l.intervention_code !== body.existing_intervention_code);
    claim.diagnoses = claim.diagnoses.map((d) => (d.intervention_code === body.existing_intervention_code ? { ...d, intervention_code: next.intervention_code } : d));
    return { data: {}, message: 'Intervention switched' };
  });

}
