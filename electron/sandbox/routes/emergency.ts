// Emergency claims (ECCIF): protocols, unidentified creation, later identification of the same
// claim (its protocols kept), exactly one intervention; the 24-hour window is checked at submit.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { checkOtp, requirePatient } from '../state/consent';
import type { ClaimRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { interventionList, money, otpField, pageQuery, paginate, parse, practitionerIdType, regulator, text } from '../validation';
import { emergencyView } from '../views';
import { CATALOGUE, type Protocol } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { newClaim } from './claims';
import { doctorRecord, requestUrl, requireEditable, requireProfessional } from './shared';

const emergencyRequest = z
  .object({
    consent_token: text,
    interventions: interventionList.optional(),
    intervention_code: text.optional(),
    protocol_code: text,
    unit_price: money,
    mode_of_arrival: z.enum(['AMBULANCE', 'WALK-IN', 'OTHER']),
    brought_by: z.enum(['RELATIVE', 'UNKNOWN', 'SAMARITAN', 'PARAMEDICS']),
    reference_number: z.string().trim().max(100).optional(),
    identification_number: text,
    identification_type: practitionerIdType,
    regulation_body: regulator,
    notes: z.string().trim().max(2000).optional(),
    beneficiary_cr_id: text.optional(),
    otp: otpField.optional(),
  })
  .superRefine((v, issue) => {
    const codes = new Set([...(v.interventions ?? []), ...(v.intervention_code === undefined ? [] : [v.intervention_code])]);
    if (codes.size !== 1) {
      issue.addIssue({ code: 'custom', path: ['interventions'], message: `exactly one intervention per emergency claim (got ${codes.size})` });
    }
    if (v.otp !== undefined && v.beneficiary_cr_id === undefined) {
      issue.addIssue({ code: 'custom', path: ['beneficiary_cr_id'], message: "the patient's otp comes with beneficiary_cr_id" });
    }
    if (v.beneficiary_cr_id !== undefined && v.otp === undefined) {
      issue.addIssue({ code: 'custom', path: ['otp'], message: "identifying the patient needs the patient's otp" });
    }
  });

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');
const protocolsQuery = z.object({ active: booleanQuery.optional(), intervention_code: text.optional(), ...pageQuery.shape });

function requireProtocol(code: string, interventionCode: string, unitPrice: number): Protocol {
  const protocol = CATALOGUE.protocols.find((p) => p.protocolCode === code && p.intervention_code === interventionCode);
  if (protocol === undefined) throw fail.rule('INTERVENTION_NOT_ALLOWED', `${code} is not a protocol of ${interventionCode}`);
  if (!protocol.active) throw fail.rule('INTERVENTION_NOT_ALLOWED', `Protocol ${code} is retired`);
  if (unitPrice !== protocol.applicableTariff) {
    throw fail.rule('TARIFF_MISMATCH', `unit_price must be the protocol's applicableTariff (${protocol.applicableTariff})`, [
      { applicableTariff: protocol.applicableTariff },
    ]);
  }
  return protocol;
}

function addProtocol(ctx: SandboxContext, claim: ClaimRecord, protocol: Protocol): void {
  const e = claim.emergency;
  if (e === null || e.protocols.some((p) => p.protocol_code === protocol.protocolCode)) return;
  e.protocols.push({ protocol_code: protocol.protocolCode, name: protocol.name, unit_price: protocol.applicableTariff, added_at: ctx.now() });
  claim.lines.push({
    line_guid: ctx.rng.uuid(),
    intervention_code: protocol.intervention_code,
    item_code: protocol.protocolCode,
    description: protocol.name,
    unit_price: protocol.applicableTariff,
    quantity: 1,
    diagnoses: [],
    service_date: new Date(ctx.now()).toISOString().slice(0, 10),
    practitioner: null,
    generated: 'protocol',
    created_at: ctx.now(),
  });
}

/** Identification: the patient's OTP (sent by claims/otp) names who the patient is. */
function identify(ctx: SandboxContext, facility: Facility, claim: ClaimRecord, crId: string, otpCode: string): void {
  if (claim.patient_id === crId) return;
  if (claim.patient_id !== null) {
    throw fail.conflict('CLAIM_ALREADY_IDENTIFIED', `The claim is already identified as patient ${claim.patient_id}`);
  }
  const patient = requirePatient(crId);
  const otp = checkOtp(ctx, { facility, purpose: 'consent', code: otpCode, patientId: patient.crId });
  const code = claim.interventions[0] ?? '';
  if (!otp.interventions.includes(code)) throw fail.rule('AUTHORIZATION_MISMATCH', `The patient's OTP was not sent for ${code}`);
  otp.used_at = ctx.now();
  claim.patient_id = patient.crId;
  if (claim.emergency !== null) claim.emergency.identified_at = ctx.now();
}

export function emergencyRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/claims/emergency/protocols', async (request) => {
    const query = parse(protocolsQuery, request.query, 'query');
    const items = CATALOGUE.protocols.filter(
      (p) => (query.active === undefined || p.active === query.active) && (query.intervention_code === undefined || p.intervention_code === query.intervention_code),
    );
    return paginate(items, query, requestUrl(ctx, request));
  });

  app.post('/claims/emergency', async (request) => {
    const facility = tenantOf(request);
    const body = parse(emergencyRequest, request.body);
    const code = body.intervention_code ?? body.interventions?.[0] ?? '';
    const a = ctx.state.authorizationByToken(facility.code, body.consent_token);
    if (a === undefined) throw fail.notFound('No emergency consent with that consent_token at this facility');
    if (a.phase !== 'emergency' || a.status !== 'EMERGENCY_AUTHORIZED') {
      throw fail.rule('AUTHORIZATION_MISMATCH', 'The consent_token is not an emergency consent (authorization_code of POST /claims/authorize, emergency shape)');
    }
    if (!a.interventions.includes(code)) throw fail.rule('AUTHORIZATION_MISMATCH', `The emergency consent was given for ${a.interventions.join(', ')}, not ${code}`);
    const intervention = CATALOGUE.interventionByCode.get(code);
    if (intervention === undefined) throw fail.rule('INTERVENTION_NOT_ALLOWED', `Unknown intervention ${code}`);
    const protocol = requireProtocol(body.protocol_code, code, body.unit_price);
    const professional = requireProfessional(body.identification_type, body.identification_number, body.regulation_body);

    let claim = ctx.state.claimByToken(facility.code, body.consent_token);
    if (claim === undefined) {
      claim = newClaim(ctx, facility, {
        consentToken: a.token,
        patientId: null,
        kind: 'emergency',
        serviceType: 'EMERGENCY',
        interventions: [intervention],
        authorization: a,
        claimAuthStatus: 'EMERGENCY_AUTHORIZED',
        openedWith: { otp: null, auth_guid: a.guid },
        emergency: {
          emergency_at: ctx.now(),
          mode_of_arrival: body.mode_of_arrival,
          brought_by: body.brought_by,
          reference_number: body.reference_number ?? null,
          protocols: [],
          identified_at: null,
        },
      });
      claim.notes = body.notes ?? null;
    } else {
      requireEditable(claim);
      if (!claim.interventions.includes(code)) {
        throw fail.rule('AUTHORIZATION_MISMATCH', `An emergency claim has exactly one intervention (${claim.interventions.join(', ')})`);
      }
    }
    if (body.beneficiary_cr_id !== undefined && body.otp !== undefined) identify(ctx, facility, claim, body.beneficiary_cr_id, body.otp);
    addProtocol(ctx, claim, protocol);
    if (claim.doctor === null) claim.doctor = doctorRecord(professional, body.identification_type, body.identification_number);
    return emergencyView(claim);
  });
}
