// Helpers the route groups share: claims and authorizations of the caller's facility, doctors from
// the professionals registry, and page links.
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { EDITABLE_CLAIM_STATES } from '../state/machines';
import type { ClaimDiagnosisRecord, ClaimRecord, DoctorRecord } from '../state/store';
import { ICD11_CONCEPTS } from '../world/concepts';
import type { Facility } from '../world/facilities';
import { findProfessional, professionalName, type Professional } from '../world/professionals';

export function requireClaim(ctx: SandboxContext, facility: Facility, consentToken: string): ClaimRecord {
  const claim = ctx.state.claimByToken(facility.code, consentToken);
  if (claim === undefined) throw fail.notFound(`No claim with consent_token ${consentToken} at ${facility.code}`);
  return claim;
}

/** Lines, diagnoses, attachments and the doctor change only while the claim is a draft. */
export function requireEditable(claim: ClaimRecord): void {
  if (!EDITABLE_CLAIM_STATES.includes(claim.workflow_state)) {
    throw fail.conflict(
      claim.workflow_state === 'CLOSED' ? 'CLAIM_NOT_EDITABLE' : 'CLAIM_ALREADY_SUBMITTED',
      `The claim is ${claim.workflow_state}: it can no longer be changed`,
      [{ workflow_state: claim.workflow_state }],
    );
  }
}

export function requireProfessional(identificationType: string, identificationNumber: string, regulator: string): Professional {
  const p = findProfessional(identificationType, identificationNumber, regulator);
  if (p === undefined) {
    throw fail.rule('PROFESSIONAL_NOT_FOUND', `No ${regulator} professional with ${identificationType} ${identificationNumber} in the registry`);
  }
  return p;
}

export function doctorRecord(p: Professional, identificationType: string, identificationNumber: string): DoctorRecord {
  return {
    name: professionalName(p),
    identification_type: identificationType,
    identification_number: identificationNumber,
    regulation_body: p.regulator,
    registration_number: p.registrationNumber,
  };
}

export function requestUrl(ctx: SandboxContext, request: FastifyRequest): URL {
  return new URL(request.url, ctx.baseUrl === '' ? 'http://127.0.0.1' : ctx.baseUrl);
}

/** Records a diagnosis of one intervention of the claim once; answers the claim's record of it. */
export function recordDiagnosis(ctx: SandboxContext, claim: ClaimRecord, code: string, interventionCode: string): ClaimDiagnosisRecord {
  const known = claim.diagnoses.find((d) => d.code === code && d.intervention_code === interventionCode);
  if (known !== undefined) return known;
  const record: ClaimDiagnosisRecord = {
    id: claim.diagnoses.reduce((max, d) => Math.max(max, d.id), 0) + 1,
    code,
    name: ICD11_CONCEPTS.find((c) => c.code === code)?.display ?? code,
    intervention_code: interventionCode,
    recorded_at: ctx.now(),
  };
  claim.diagnoses.push(record);
  return record;
}
