// Emergency claims (ECCIF) as the live exchange runs them: the claim is created with no prior
// consent (its answer's authorization_code is the consent token of every later call), exactly one
// intervention, a reference number and notes required; protocols are listed per intervention and
// added by a multipart call; an unidentified patient is identified later by posting the claim
// again with the patient's registry id and SMS code (the same claim, its protocols kept). The
// 24-hour window is checked at submit.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { broughtBy, modesOfArrival } from '../../vocabulary';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { checkOtp, createAuthorization, requirePatient } from '../state/consent';
import type { ClaimRecord, LineRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { pairAttachments, readMultipart } from '../uploads';
import { interventionList, jsonField, listedPractitionerIdType, listedRegulator, money, otpField, pageQuery, paginate, parse, text } from '../validation';
import { emergencyClaimView, protocolLineView, protocolView } from '../views';
import { CATALOGUE, isEmergencyIntervention, type Intervention, type Protocol } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { newClaim } from './claims';
import { doctorRecord, recordDiagnosis, requestUrl, requireClaim, requireEditable, requireProfessional } from './shared';

const emergencyRequest = z.object({
  interventions: interventionList.refine((codes) => codes.length === 1, 'exactly one intervention per emergency claim'),
  mode_of_arrival: z.enum(modesOfArrival),
  brought_by: z.enum(broughtBy),
  reference_number: text,
  // Optional on the portal, but UAT answers {"notes": ["This field may not be blank."]} (R WORKFLOWS §9.7).
  notes: z.string({ error: 'This field may not be blank.' }).trim().min(1, 'This field may not be blank.').max(2000),
  identification_number: text,
  identification_type: listedPractitionerIdType,
  regulation_body: listedRegulator,
  beneficiary_cr_id: text.optional(),
  otp: otpField.optional(),
  // Identification names the claim by its consent token (the contract); the reference number does too.
  consent_token: text.optional(),
});
type EmergencyRequest = z.output<typeof emergencyRequest>;

const booleanQuery = z.enum(['true', 'false'], { error: 'true or false' }).transform((v) => v === 'true');
const protocolsQuery = z.object({ active: booleanQuery, intervention_code: text, ...pageQuery.shape });

/** The portal: diagnoses as comma-separated codes; a JSON array of codes is read too (the claim lines' way). */
const protocolDiagnoses = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) return jsonField(z.unknown()).parse(trimmed);
  return trimmed === '' ? [] : trimmed.split(',').map((c) => c.trim());
}, z.array(text));

const protocolAdd = z.object({
  consent_token: text,
  protocol_code: text,
  intervention_code: text,
  unit_price: money,
  quantity: z.coerce.number().int('must be an integer').min(1, 'at least 1').max(1000),
  diagnoses: protocolDiagnoses.optional(),
  attachments: jsonField(z.array(z.object({ document_title: text, document_type: text, file_field_name: text })).max(10)).optional(),
});

function requireEmergencyIntervention(code: string): Intervention {
  const intervention = CATALOGUE.interventionByCode.get(code);
  if (intervention === undefined || !isEmergencyIntervention(intervention)) {
    throw fail.rule('INTERVENTION_NOT_ALLOWED', `Kindly note the intervention ${code} is not supported for service type EMERGENCY`);
  }
  return intervention;
}

function requireProtocol(code: string, interventionCode: string, unitPrice: number): Protocol {
  const protocol = CATALOGUE.protocols.find((p) => p.protocolCode === code && p.intervention_code === interventionCode);
  if (protocol === undefined) throw fail.rule('INTERVENTION_NOT_ALLOWED', `${code} is not a protocol of ${interventionCode}`);
  if (!protocol.active) throw fail.rule('INTERVENTION_NOT_ALLOWED', `Protocol ${code} is retired`);
  if (unitPrice !== protocol.applicableTariff) {
    throw fail.rule('TARIFF_MISMATCH', `unit_price must be the protocol's applicableTariff (${protocol.applicableTariff})`, [{ applicableTariff: protocol.applicableTariff }]);
  }
  return protocol;
}

/** The claim a post names: by its consent token, else the open emergency of that reference number here. */
function namedClaim(ctx: SandboxContext, facility: Facility, body: EmergencyRequest): ClaimRecord | undefined {
  if (body.consent_token !== undefined) {
    const claim = requireClaim(ctx, facility, body.consent_token);
    if (claim.kind !== 'emergency' || claim.emergency === null) throw fail.rule('INTERVENTION_NOT_ALLOWED', 'The consent_token names a claim that is not an emergency claim');
    return claim;
  }
  return [...ctx.state.claims.values()].find((c) => c.facility === facility.code && c.kind === 'emergency' && c.workflow_state === 'DRAFT' && c.emergency?.reference_number === body.reference_number);
}

/** Identification: the patient's SMS code (sent by claims/otp for the claim's intervention) names who the patient is. */
function identify(ctx: SandboxContext, facility: Facility, claim: ClaimRecord, crId: string, otpCode: string | undefined): void {
  if (claim.patient_id === crId) return;
  if (claim.patient_id !== null) throw fail.conflict('CLAIM_ALREADY_IDENTIFIED', `The claim is already identified as patient ${claim.patient_id}`);
  if (otpCode === undefined) throw fail.field('otp', "identifying the patient of an existing claim needs the patient's otp");
  const patient = requirePatient(crId);
  const otp = checkOtp(ctx, { facility, purpose: 'consent', code: otpCode, patientId: patient.crId });
  const code = claim.interventions[0] ?? '';
  if (!otp.interventions.includes(code)) throw fail.rule('AUTHORIZATION_MISMATCH', `The patient's OTP was not sent for ${code}`);
  otp.used_at = ctx.now();
  claim.patient_id = patient.crId;
  if (claim.emergency !== null) claim.emergency.identified_at = ctx.now();
}

function createClaim(ctx: SandboxContext, facility: Facility, body: EmergencyRequest, intervention: Intervention): ClaimRecord {
  // A patient known on arrival is named at creation (A's identified create); an OTP, when sent, is checked.
  const patient = body.beneficiary_cr_id === undefined ? null : requirePatient(body.beneficiary_cr_id);
  if (patient !== null && body.otp !== undefined) {
    const otp = checkOtp(ctx, { facility, purpose: 'consent', code: body.otp, patientId: patient.crId });
    otp.used_at = ctx.now();
  }
  const doctor = { identification_type: body.identification_type, identification_number: body.identification_number, regulation_body: body.regulation_body };
  const authorization = createAuthorization(ctx, {
    facility,
    patient,
    interventions: [intervention.intervention_code],
    serviceType: 'EMERGENCY',
    phase: 'emergency',
    method: 'otp',
    status: 'EMERGENCY_AUTHORIZED',
    doctor,
    request: { ...body, otp: body.otp === undefined ? undefined : '******' },
  });
  const claim = newClaim(ctx, facility, {
    consentToken: authorization.token,
    patientId: patient?.crId ?? null,
    kind: 'emergency',
    serviceType: 'EMERGENCY',
    interventions: [intervention],
    authorization,
    claimAuthStatus: 'AUTHORIZED',
    openedWith: { otp: null, auth_guid: authorization.guid },
    emergency: {
      emergency_at: ctx.now(),
      mode_of_arrival: body.mode_of_arrival,
      brought_by: body.brought_by,
      reference_number: body.reference_number,
      protocols: [],
      identified_at: patient === null ? null : ctx.now(),
    },
  });
  // The 24 hours run from the visit's start: one instant for both.
  if (claim.emergency !== null) claim.emergency = { ...claim.emergency, emergency_at: claim.visit_start };
  claim.notes = body.notes;
  return claim;
}

export function emergencyRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/claims/emergency/protocols', async (request) => {
    const query = parse(protocolsQuery, request.query, 'query');
    const items = CATALOGUE.protocols.filter((p) => p.active === query.active && p.intervention_code === query.intervention_code).map(protocolView);
    return paginate(items, query, requestUrl(ctx, request));
  });

  app.post('/claims/emergency', async (request) => {
    const facility = tenantOf(request);
    const body = parse(emergencyRequest, request.body);
    const intervention = requireEmergencyIntervention(body.interventions[0] ?? '');
    const professional = requireProfessional(body.identification_type, body.identification_number, body.regulation_body);
    const claim = namedClaim(ctx, facility, body);
    if (claim === undefined) {
      const created = createClaim(ctx, facility, body, intervention);
      created.doctor = doctorRecord(professional, body.identification_type, body.identification_number);
      return emergencyClaimView(created);
    }
    requireEditable(claim);
    if (!claim.interventions.includes(intervention.intervention_code)) {
      throw fail.rule('AUTHORIZATION_MISMATCH', `An emergency claim has exactly one intervention (${claim.interventions.join(', ')})`);
    }
    if (body.beneficiary_cr_id !== undefined) identify(ctx, facility, claim, body.beneficiary_cr_id, body.otp);
    claim.notes = body.notes;
    if (claim.doctor === null) claim.doctor = doctorRecord(professional, body.identification_type, body.identification_number);
    return emergencyClaimView(claim);
  });

  app.post('/claims/emergency/protocols', async (request) => {
    const facility = tenantOf(request);
    const { fields, files } = await readMultipart(request);
    const body = parse(protocolAdd, fields);
    const claim = requireClaim(ctx, facility, body.consent_token);
    if (claim.kind !== 'emergency' || claim.emergency === null) throw fail.rule('INTERVENTION_NOT_ALLOWED', 'Protocols are added to emergency claims');
    requireEditable(claim);
    if (!claim.interventions.includes(body.intervention_code)) {
      throw fail.rule('INTERVENTION_NOT_ALLOWED', `${body.intervention_code} is not the intervention of this emergency claim (${claim.interventions.join(', ')})`);
    }
    const protocol = requireProtocol(body.protocol_code, body.intervention_code, body.unit_price);
    const attachments = pairAttachments(body.attachments ?? [], files);
    const now = ctx.now();
    const diagnoses = (body.diagnoses ?? []).map((code) => ({ code }));
    const line: LineRecord = {
      line_guid: ctx.rng.uuid(),
      intervention_code: protocol.intervention_code,
      item_code: protocol.protocolCode,
      description: protocol.name,
      unit_price: protocol.applicableTariff,
      quantity: body.quantity,
      diagnoses,
      service_date: new Date(now).toISOString().slice(0, 10),
      practitioner: null,
      generated: 'protocol',
      created_at: now,
    };
    claim.lines.push(line);
    for (const d of diagnoses) recordDiagnosis(ctx, claim, d.code, protocol.intervention_code);
    for (const { meta, file } of attachments) {
      claim.attachments.push({
        attachment_id: ctx.rng.uuid(),
        intervention_code: protocol.intervention_code,
        document_type: meta.document_type,
        title: meta.document_title,
        file_name: file.filename,
        content_type: file.mimetype,
        size: file.data.length,
        uploaded_at: now,
      });
    }
    claim.emergency.protocols.push({ protocol_code: protocol.protocolCode, name: protocol.name, unit_price: protocol.applicableTariff, added_at: now });
    return protocolLineView(claim, line);
  });
}
