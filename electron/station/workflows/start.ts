// Where the two workflows that take a patient's consent before a visit begin — flow B's consent and
// flow A's elective: a looked-up patient who is covered under one settled scheme, what the workflow
// keeps of them and of the intervention, and a verification step with its route decided.
// Every workflow's header (id, kind, first state, times) is made here too.
import type { Ctx } from './context';
import { briefOf, type ContractIntervention } from '../patients';
import { fail } from '../errors';
import type { AnyWorkflow, InterventionBrief, PatientFacts, VerificationData } from './types';
import { newVerification } from './verification';

type Facts = ReturnType<Ctx['patients']['facts']>;

/**
 * The patient's facts once their phones and suggested service are in, refused when consent cannot
 * be taken: not covered, or two schemes and none chosen.
 */
export async function consentingPatient(ctx: Ctx, patientRef: string): Promise<Facts> {
  await ctx.patients.ready(patientRef);
  const facts = ctx.patients.facts(patientRef);
  if (!facts.covered) fail('NOT_COVERED', 'The patient is not covered: consent cannot be taken.');
  if (facts.schemeChoiceNeeded) fail('SCHEME_CHOICE_NEEDED', 'The patient is covered under two schemes: choose one first.');
  return facts;
}

/** What every new workflow starts with: a fresh id, its kind and first state, created now, no error. */
export function workflowHeader<K extends AnyWorkflow['kind'], S extends string>(
  ctx: Ctx,
  kind: K,
  state: S,
): { id: string; kind: K; state: S; createdAt: string; updatedAt: string; lastError: null } {
  const now = ctx.nowIso();
  return { id: ctx.newId('wf'), kind, state, createdAt: now, updatedAt: now, lastError: null };
}

/** A new workflow in its first state, verifying, with what it keeps of the patient and the intervention. */
export function verifyingWorkflow<K extends 'consent' | 'elective'>(
  ctx: Ctx,
  kind: K,
  facts: Facts,
  intervention: ContractIntervention,
  purpose: 'visit' | 'pre-visit',
): {
  readonly header: { id: string; kind: K; state: 'verifying'; createdAt: string; updatedAt: string; lastError: null };
  readonly data: { patient: PatientFacts; intervention: InterventionBrief; verification: VerificationData };
} {
  return {
    header: workflowHeader(ctx, kind, 'verifying'),
    data: {
      patient: { ref: facts.ref, maskedName: facts.maskedName, patientId: facts.patientId, biometricsEnforced: facts.biometricsEnforced, whitelisted: facts.whitelisted, contacts: facts.contacts, inHand: facts.inHand },
      intervention: briefOf(intervention),
      verification: newVerification(ctx, purpose, facts),
    },
  };
}
