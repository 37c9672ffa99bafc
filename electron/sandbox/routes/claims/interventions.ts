// The interventions of an open claim (or of a consent before its visit): adding one, retiring and
// restoring it (R WORKFLOWS §9.8, UAT: a retired one stays INACTIVE and loses its lines; a restored
// one comes back without them), and switching one for another. docs/exchange-wire.md says which
// refusals the sources show; where they show none, nothing is refused.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { fail } from '../../errors';
import { finalisedPreauthFor, requireFitsServiceType, requireInterventions } from '../../state/consent';
import type { ClaimRecord } from '../../state/store';
import { tenantOf } from '../../tenancy';
import { parse, text } from '../../validation';
import { claimInterventionView } from '../../views';
import { requireClaim, requireEditable } from '../shared';
import { addPerDiemLine, isoDate } from './records';

/** The portal also lists facilityID and facilityIDType (optional, for the add); they are read and ignored. */
const interventionOnClaim = z.object({ consent_token: text, intervention_code: text });

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

function editableClaim(ctx: SandboxContext, request: FastifyRequest): { claim: ClaimRecord; code: string } {
  const facility = tenantOf(request);
  const body = parse(interventionOnClaim, request.body);
  const claim = requireClaim(ctx, facility, body.consent_token);
  requireEditable(claim);
  return { claim, code: body.intervention_code };
}

function requireOnClaim(claim: ClaimRecord, code: string): void {
  if (!claim.interventions.includes(code) && !claim.retired_interventions.includes(code)) {
    throw fail.notFound(`${code} is not an intervention of this claim (${[...claim.interventions, ...claim.retired_interventions].join(', ')})`);
  }
}

export function interventionRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/claims/interventions', async (request) => {
    const { claim, code } = editableClaim(ctx, request);
    const [intervention] = requireInterventions([code]);
    if (intervention === undefined) throw fail.field('intervention_code', 'required');
    if (claim.interventions.includes(code)) {
      // AE reads a second add's refusal ("already … exists") as "it is there": the live service refuses a duplicate.
      throw fail.conflict('INTERVENTION_ALREADY_ON_CLAIM', `${code} is already on the claim`, [{ intervention_code: code }]);
    }
    if (claim.retired_interventions.includes(code)) {
      // Ours (no source): adding a retired intervention makes it ACTIVE again, as a restore, its lines not brought back.
      claim.retired_interventions = claim.retired_interventions.filter((c) => c !== code);
    } else {
      addPerDiemLine(ctx, claim, intervention);
    }
    claim.interventions = [...claim.interventions, code];
    return claimInterventionView(code, 'ACTIVE');
  });

  app.post('/claims/interventions/retire', async (request) => {
    const { claim, code } = editableClaim(ctx, request);
    requireOnClaim(claim, code);
    if (claim.interventions.includes(code)) {
      // UAT deleted a retired intervention's lines (R WORKFLOWS §9.8); its diagnoses and papers: no source says, kept.
      claim.lines = claim.lines.filter((l) => l.intervention_code !== code);
      claim.interventions = claim.interventions.filter((c) => c !== code);
      claim.retired_interventions = [...claim.retired_interventions, code];
    }
    return { data: {}, message: 'Intervention retired successfully' };
  });

  app.post('/claims/interventions/restore', async (request) => {
    const { claim, code } = editableClaim(ctx, request);
    requireOnClaim(claim, code);
    if (claim.retired_interventions.includes(code)) {
      // The intervention comes back; its deleted lines do not (R WORKFLOWS §9.8).
      claim.retired_interventions = claim.retired_interventions.filter((c) => c !== code);
      claim.interventions = [...claim.interventions, code];
    }
    return { data: {}, message: 'Intervention restored successfully' };
  });

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
    // UAT left the old intervention INACTIVE and the new one ACTIVE (R WORKFLOWS §9.8).
    claim.retired_interventions = [...claim.retired_interventions.filter((c) => c !== next.intervention_code && c !== body.existing_intervention_code), body.existing_intervention_code].filter(
      (c) => !claim.interventions.includes(c),
    );
    claim.lines = body.retain_bill_items
      ? claim.lines.map((l) => (l.intervention_code === body.existing_intervention_code ? { ...l, intervention_code: next.intervention_code } : l))
      : claim.lines.filter((l) => l.intervention_code !== body.existing_intervention_code);
    claim.diagnoses = claim.diagnoses.map((d) => (d.intervention_code === body.existing_intervention_code ? { ...d, intervention_code: next.intervention_code } : d));
    return { data: {}, message: 'Intervention switched' };
  });

}
