// Prescriptions and dispenses.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dispenserIdentificationTypes } from '../../vocabulary';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import type { DispenseRecord, PrescriptionRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { doctorRemoval, listedPractitionerIdType, listedRegulator, money, parse, text } from '../validation';
import { findProfessional } from '../world/professionals';
import { doctorRecord, requireProfessional } from './shared';

const isoDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}/, 'a date such as 2025-07-01');

/** Item fields as the exchange documents them [doc]. */
const item = z.object({
  generic_concept_code: text,
  dose_quantity: z.coerce.number().positive().optional(),
  dose_unit: z.string().trim().max(50).optional(),
  duration: z.coerce.number().positive().optional(),
  duration_unit: z.string().trim().max(50).optional(),
  // An integer (the portal); "TDS" and the like are refused.
  frequency: z.number().int('an integer: how many times per period_unit').positive().optional(),
  period_unit: z.string().trim().max(50).optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
  needs_refill: z.boolean().optional(),
  refill_count: z.number().int().min(0).max(12).optional(),
  patient_instruction: z.string().trim().max(1000).optional(),
  additional_instruction: z.string().trim().max(1000).optional(),
});

const prescriptionRequest = z
  .object({
    consent_token: text,
    intervention_code: text,
    items: z.array(item).min(1, 'a prescription needs at least one item'),
    // The prescribing doctor is optional, but its three fields come together.
    identification_number: text.optional(),
    identification_type: listedPractitionerIdType.optional(),
    regulation_body: listedRegulator.optional(),
  })
  .superRefine((v, issue) => {
    const fields = ['identification_number', 'identification_type', 'regulation_body'] as const;
    const given = fields.filter((f) => v[f] !== undefined);
    if (given.length > 0 && given.length < 3) {
      for (const f of fields.filter((x) => v[x] === undefined)) {
        issue.addIssue({ code: 'custom', path: [f], message: "the prescribing doctor's three fields come together" });
      }
    }
  });

const dispenseRequest = z.object({
  actual_products: z
    .array(z.object({ actual_product_code: text, medication_price: money, total_quantity: z.coerce.number().positive() }))
    .min(1, 'at least one dispensed product'),
  consent_token: text,
  // The dispenser by an identity document: UAT refuses registration_number here ("is not a valid choice", R create_dispense()).
  doctors: z.array(z.object({ identification_number: text, identification_type: z.enum(dispenserIdentificationTypes) })).min(1),
  intervention_code: text,
});

const previewQuery = z.object({ consent_token: text });

/** A prescription as the portal answers one, to its create and to its preview (test/fixtures/wire/prescriptions.*). */
function prescriptionAnswer(record: PrescriptionRecord) {
  return {
    code: record.code,
    doctorReviewStatus: record.doctor_review_status,
    dosage: record.items.map((i) => ({
      medicationIdentifier: i.generic_concept_code,
      ...(i.frequency === undefined ? {} : { frequency: i.frequency }),
      ...(i.dose_unit === undefined ? {} : { doseUnit: i.dose_unit }),
      ...(i.period_unit === undefined ? {} : { periodUnit: i.period_unit }),
      ...(i.start_date === undefined ? {} : { startDate: i.start_date }),
    })),
    guid: record.guid,
    id: record.id,
    intervention: { code: record.intervention_code },
    replicated: 'NO',
    status: record.status,
  };
}

function requireConsent(ctx: SandboxContext, facilityCode: string, token: string): { interventions: readonly string[] } {
  const known = ctx.state.claimByToken(facilityCode, token) ?? ctx.state.authorizationByToken(facilityCode, token);
  if (known === undefined) throw fail.notFound('No claim or authorization with that consent_token at this facility');
  return known;
}

export function prescriptionRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/prescriptions', async (request) => {
    const facility = tenantOf(request);
    const body = parse(prescriptionRequest, request.body);
    const consent = requireConsent(ctx, facility.code, body.consent_token);
    if (!consent.interventions.includes(body.intervention_code)) {
      throw fail.rule('INTERVENTION_NOT_ALLOWED', `${body.intervention_code} is not an intervention of this consent`);
    }
    const professional =
      body.identification_number === undefined || body.identification_type === undefined || body.regulation_body === undefined
        ? null
        : requireProfessional(body.identification_type, body.identification_number, body.regulation_body);
    const serial = ctx.state.nextSerial();
    const record: PrescriptionRecord = {
      id: serial,
      guid: ctx.rng.uuid(),
      code: `RX-${facility.kmhflCode}-${String(serial).padStart(6, '0')}`,
      facility: facility.code,
      consent_token: body.consent_token,
      intervention_code: body.intervention_code,
      items: body.items,
      doctors: professional === null ? [] : [doctorRecord(professional, body.identification_type ?? '', body.identification_number ?? '')],
      status: 'ACTIVE',
      doctor_review_status: professional === null ? 'NOT_REQUIRED' : 'PENDING',
      created_at: ctx.now(),
    };
    ctx.state.prescriptions.push(record);
    return prescriptionAnswer(record);
  });

  // The portal's "Preview prescription": one object for a consent token. Which one when the token
  // carries several is not documented: the sandbox answers the first written (ours), so a station
  // that assumed "the latest" is caught. No prescription on the token: 404 (ours; the portal lists
  // 400, 401, 403 and 500 only).
  app.get('/prescriptions', async (request) => {
    const facility = tenantOf(request);
    const query = parse(previewQuery, request.query, 'query');
    requireConsent(ctx, facility.code, query.consent_token);
    const record = ctx.state.prescriptions.find((p) => p.facility === facility.code && p.consent_token === query.consent_token);
    if (record === undefined) throw fail.notFound('No prescription with that consent_token');
    return prescriptionAnswer(record);
  });

  const dispense = async (request: Parameters<typeof tenantOf>[0]) => {
    const facility = tenantOf(request);
    const body = parse(dispenseRequest, request.body);
    requireConsent(ctx, facility.code, body.consent_token);
    const prescribed = ctx.state.prescriptions.some(
      (p) => p.facility === facility.code && p.consent_token === body.consent_token && (p.intervention_code === null || p.intervention_code === body.intervention_code),
    );
    if (!prescribed) throw fail.notFound(`No prescription for ${body.intervention_code} with that consent_token`);
    for (const d of body.doctors) {
      // R sends a dispenser known by registration number as `National ID` with that number (R
      // create_dispense() `_dispenser_id_type`, its UAT note of 2026-09-24), and UAT took the type:
      // under `National ID` the registry is asked by national ID, then by registration number.
      const found =
        findProfessional(d.identification_type, d.identification_number) ??
        (d.identification_type === 'National ID' ? findProfessional('registration_number', d.identification_number) : undefined);
      if (found === undefined) throw fail.rule('PROFESSIONAL_NOT_FOUND', `No professional with ${d.identification_type} ${d.identification_number} in the registry`);
    }
    const record: DispenseRecord = {
      id: ctx.state.nextSerial(),
      facility: facility.code,
      consent_token: body.consent_token,
      intervention_code: body.intervention_code,
      actual_products: body.actual_products,
      doctors: body.doctors,
      status: 'DISPENSED',
      created_at: ctx.now(),
    };
    ctx.state.dispenses.push(record);
    // One dispense (the portal's answer of /dispenses; R's DispenseWire at /dispense).
    return {
      id: record.id,
      status: record.status,
      dispenseDosages: body.actual_products.map((p) => ({
        dispense: record.id,
        medicationIdentifier: p.actual_product_code,
        medicationPrice: p.medication_price.toFixed(2),
        totalQuantity: String(p.total_quantity),
        status: record.status,
      })),
      dispensingDoctors: body.doctors.map((_, n) => ({ dispense: record.id, id: n + 1 })),
    };
  };
  // UAT answered 404 at the portal's /dispenses and 200 at /dispense (R create_dispense()): both are served.
  app.post('/prescriptions/dispense', dispense);
  app.post('/prescriptions/dispenses', dispense);

  app.delete('/prescriptions/doctors', async (request, reply) => {
    const facility = tenantOf(request);
    const body = parse(doctorRemoval, request.body);
    const prescription = [...ctx.state.prescriptions]
      .reverse()
      .find(
        (p) =>
          p.facility === facility.code &&
          p.consent_token === body.consent_token &&
          p.intervention_code === body.intervention_code &&
          p.doctors.some((d) => d.registration_number === body.practitioner_registration_number),
      );
    if (prescription === undefined) throw fail.notFound(`Doctor ${body.practitioner_registration_number} is on no prescription of that consent_token`);
    prescription.doctors = prescription.doctors.filter((d) => d.registration_number !== body.practitioner_registration_number);
    // The portal answers 200 with an empty object (the contract says "a string"; the live documentation governs).
    return reply.code(200).send({});
  });
}
