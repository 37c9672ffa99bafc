// Several services on one claim, client and sandbox both real: an inpatient stay opened with two
// interventions, billed per intervention, a third added on the ward, one retired (its lines deleted,
// INACTIVE on the preview: R WORKFLOWS §9.8) and restored (ACTIVE, its lines not back), then
// discharged and submitted; and what the exchange is known to refuse of the three calls.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Intervention } from '../../../electron/payer';
import { claimOnPaper, loadDocumentFonts, makeInvoice } from '../../../electron/station/documents';
import { BIOMETRIC, DIAGNOSIS, NID, PRACTITIONER, patientId, presentFinger, readOtp, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

/** Inpatient fee-for-service interventions that need no preauthorization: the tests and procedures of a ward stay. */
let wardServices: Intervention[] = [];

beforeAll(async () => {
  const patient = await patientId(w.hospital, NID.covered);
  const subBenefits = await w.hospital.eligibility.subBenefits({ patient_id: patient, pageSize: 100 });
  for (const s of subBenefits.items.filter((b) => b.accessPoint !== 'OP')) {
    const listed = await w.hospital.eligibility.interventions({ patient_id: patient, sub_benefit_code: s.code });
    wardServices.push(...listed.items.filter((i) => i.scenario === 'fee-for-service' && i.accessPoint !== 'OP'));
  }
  wardServices = [...new Map(wardServices.map((i) => [i.code, i])).values()];
  expect(wardServices.length).toBeGreaterThanOrEqual(2);
});

function ward(n: number): string {
  const service = wardServices[n];
  if (service === undefined) throw new Error(`no ward service #${n}`);
  return service.code;
}

/** A stay opened by fingerprint with several interventions at once, the doctor named at the start. */
async function admit(patient: string, interventions: string[]) {
  const a = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'INPATIENT', interventions, ...BIOMETRIC });
  await presentFinger(w.raw, a.guid ?? '', patient);
  return w.hospital.claims.createVisit({ patient_id: patient, intervention_codes: interventions, service_type: 'INPATIENT', auth_guid: a.guid ?? '', ...PRACTITIONER });
}

const states = (preview: { interventionStates: { interventionCode: string; state: string | undefined; active: boolean }[] }) =>
  preview.interventionStates.map((i) => [i.interventionCode, i.state, i.active]);

describe('an inpatient stay with several services', () => {
  it('opens with two, bills each, adds a third, retires and restores one, then is discharged and submitted', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const visit = await admit(patient, [codes.perDiem.code, ward(0)]);
    const token = visit.consentToken;
    expect(visit.interventions).toEqual([codes.perDiem.code, ward(0)]);

    // A line and a diagnosis per service; the per-diem day line was made at admission.
    await w.hospital.claims.addBilling({ consent_token: token, intervention_code: ward(0), unit_price: 2_500, quantity: 1, diagnoses: [DIAGNOSIS[0].code], service_name: 'Chest X-ray' });
    await w.hospital.claims.addDiagnosis({ consent_token: token, icd_code: 'CA40.Z', intervention_code: codes.perDiem.code });
    let preview = await w.hospital.claims.preview({ consent_token: token });
    expect(states(preview)).toEqual([
      [codes.perDiem.code, 'ACTIVE', true],
      [ward(0), 'ACTIVE', true],
    ]);
    expect(preview.lines.map((l) => l.interventionCode).sort()).toEqual([codes.perDiem.code, ward(0)].sort());

    // A third service on the ward: the answer is the intervention, ACTIVE on the claim.
    const added = await w.hospital.claims.addIntervention({ consent_token: token, intervention_code: ward(1) });
    expect(added).toMatchObject({ interventionCode: ward(1), state: 'ACTIVE', needsPreauth: false });
    await w.hospital.claims.addBilling({ consent_token: token, intervention_code: ward(1), unit_price: 800, quantity: 2, diagnoses: [DIAGNOSIS[0].code], service_name: 'Full blood count' });
    preview = await w.hospital.claims.preview({ consent_token: token });
    expect(states(preview)).toEqual([
      [codes.perDiem.code, 'ACTIVE', true],
      [ward(0), 'ACTIVE', true],
      [ward(1), 'ACTIVE', true],
    ]);
    const beforeRetire = preview.totalAmount;

    // Retiring deletes that service's lines; it stays on the claim, INACTIVE, its papers no longer counted.
    await w.hospital.claims.retireIntervention({ consent_token: token, intervention_code: ward(0) });
    preview = await w.hospital.claims.preview({ consent_token: token });
    expect(states(preview)).toEqual([
      [codes.perDiem.code, 'ACTIVE', true],
      [ward(1), 'ACTIVE', true],
      [ward(0), 'INACTIVE', false],
    ]);
    expect(preview.lines.some((l) => l.interventionCode === ward(0))).toBe(false);
    expect(preview.totalAmount).toBe(beforeRetire - 2_500);
    expect(preview.documentTypes.map((d) => d.interventionCode)).not.toContain(ward(0));
    // A retired service is not billed until it is restored.
    await refusal(
      w.hospital.claims.addBilling({ consent_token: token, intervention_code: ward(0), unit_price: 2_500, quantity: 1, diagnoses: [DIAGNOSIS[0].code] }),
      { kind: 'rule_violation', status: 422, code: 'INTERVENTION_NOT_ALLOWED' },
    );

    // Restoring brings the service back, not its lines.
    await w.hospital.claims.restoreIntervention({ consent_token: token, intervention_code: ward(0) });
    preview = await w.hospital.claims.preview({ consent_token: token });
    expect(preview.interventionStates.find((i) => i.interventionCode === ward(0))).toMatchObject({ state: 'ACTIVE', active: true });
    expect(preview.lines.some((l) => l.interventionCode === ward(0))).toBe(false);
    await w.hospital.claims.addBilling({ consent_token: token, intervention_code: ward(0), unit_price: 2_500, quantity: 1, diagnoses: [DIAGNOSIS[0].code], service_name: 'Chest X-ray, repeated' });

    // Discharge by the patient's discharge code, then submit FULL: the whole stay, every service's lines.
    preview = await w.hospital.claims.preview({ consent_token: token });
    await w.hospital.consent.sendDischargeOtp({ consent_token: token, patient_id: patient });
    const discharged = await w.hospital.claims.discharge({
      consent_token: token,
      discharge_reason: 'RECOVERED',
      invoice_number: preview.invoiceNumber ?? '',
      discharge_date: new Date().toISOString(),
      otp: await readOtp(w.raw, { patient_id: patient }, 'discharge'),
    });
    expect(discharged.workflowState).toBe('SUBMITTED');
    const final = await w.hospital.claims.preview({ consent_token: token });
    expect(new Set(final.lines.map((l) => l.interventionCode))).toEqual(new Set([codes.perDiem.code, ward(0), ward(1)]));
    expect(final.totalAmount).toBe(final.lines.reduce((n, l) => n + (l.amount ?? 0), 0));

    // Once submitted, the services are fixed.
    for (const call of [
      w.hospital.claims.addIntervention({ consent_token: token, intervention_code: codes.capitation.code }),
      w.hospital.claims.retireIntervention({ consent_token: token, intervention_code: ward(1) }),
      w.hospital.claims.restoreIntervention({ consent_token: token, intervention_code: ward(1) }),
    ]) {
      await refusal(call, { kind: 'conflict', status: 409, code: 'CLAIM_ALREADY_SUBMITTED' });
    }
  });

  it('refuses a second add of a service on the claim, a code outside the benefits, and what the claim never had', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { consentToken: token } = await admit(patient, [codes.perDiem.code]);
    await refusal(w.hospital.claims.addIntervention({ consent_token: token, intervention_code: codes.perDiem.code }), {
      kind: 'conflict',
      status: 409,
      code: 'INTERVENTION_ALREADY_ON_CLAIM',
    });
    await refusal(w.hospital.claims.addIntervention({ consent_token: token, intervention_code: 'SHA-99-999' }), { kind: 'rule_violation', status: 422, code: 'INTERVENTION_NOT_ALLOWED' });
    await refusal(w.hospital.claims.retireIntervention({ consent_token: token, intervention_code: ward(0) }), { kind: 'not_found', status: 404 });
    await refusal(w.hospital.claims.restoreIntervention({ consent_token: token, intervention_code: ward(0) }), { kind: 'not_found', status: 404 });
    await refusal(w.hospital.claims.addIntervention({ consent_token: 'NO-SUCH-TOKEN', intervention_code: ward(0) }), { kind: 'not_found', status: 404 });
    // The client refuses an empty code before sending anything.
    await refusal(w.hospital.claims.addIntervention({ consent_token: token, intervention_code: ' ' }), { kind: 'validation', field: 'intervention_code' });
  });

  it('retires the last service without a word, as no source shows the exchange refusing it, and a retire or restore again changes nothing', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { consentToken: token } = await admit(patient, [codes.perDiem.code]);
    await w.hospital.claims.retireIntervention({ consent_token: token, intervention_code: codes.perDiem.code });
    await w.hospital.claims.retireIntervention({ consent_token: token, intervention_code: codes.perDiem.code });
    let preview = await w.hospital.claims.preview({ consent_token: token });
    expect(states(preview)).toEqual([[codes.perDiem.code, 'INACTIVE', false]]);
    expect(preview.lines).toEqual([]);
    await w.hospital.claims.restoreIntervention({ consent_token: token, intervention_code: codes.perDiem.code });
    await w.hospital.claims.restoreIntervention({ consent_token: token, intervention_code: codes.perDiem.code });
    preview = await w.hospital.claims.preview({ consent_token: token });
    expect(states(preview)).toEqual([[codes.perDiem.code, 'ACTIVE', true]]);
  });

  it('leaves a switched-out service INACTIVE beside the new one, as UAT showed', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { consentToken: token } = await admit(patient, [codes.perDiem.code, ward(0)]);
    await w.hospital.claims.switchIntervention({ consent_token: token, existing_intervention_code: ward(0), new_intervention_code: ward(1), retain_bill_items: false });
    const preview = await w.hospital.claims.preview({ consent_token: token });
    expect(states(preview)).toEqual([
      [codes.perDiem.code, 'ACTIVE', true],
      [ward(1), 'ACTIVE', true],
      [ward(0), 'INACTIVE', false],
    ]);
  });
  it('takes the station’s invoice of the stay, made from SHA’s preview, as the claim’s INVOICE', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { consentToken: token, visitNumber } = await admit(patient, [codes.perDiem.code, ward(0)]);
    await w.hospital.claims.addBilling({ consent_token: token, intervention_code: ward(0), unit_price: 2_500, quantity: 1, diagnoses: [DIAGNOSIS[0].code], service_name: 'Chest X-ray' });
    const preview = await w.hospital.claims.preview({ consent_token: token });
    const paper = claimOnPaper(preview);
    const invoice = await makeInvoice(
      {
        language: 'sw',
        issuedAt: '2026-03-09T10:15:00+03:00',
        facility: { name: 'Idhini Demo Hospital', code: 'FID-00-000004-0' },
        invoiceNumber: preview.invoiceNumber ?? '',
        patient: { name: 'Wanjiku Mumbi Kamau', shaNumber: patient },
        visit: { visitNumber: visitNumber ?? null, serviceType: 'INPATIENT', start: preview.visitStart ?? '', end: null, services: paper.services },
        doctor: { name: 'Dr. Achieng Odhiambo', registrationNumber: 'A12345', regulator: 'KMPDC' },
        lines: paper.lines,
      },
      loadDocumentFonts(),
    );
    expect(invoice.totalKes).toBe(preview.totalAmount);
    const attached = await w.hospital.claims.uploadAttachment({
      consent_token: token,
      intervention_code: ward(0),
      document_type: invoice.documentType,
      file_blob: { file_name: invoice.fileName, content_type: invoice.contentType, data: invoice.bytes },
    });
    const after = await w.hospital.claims.preview({ consent_token: token });
    expect(after.attachments).toEqual([expect.objectContaining({ id: attached.id, attachmentType: 'INVOICE', interventionCode: ward(0) })]);
  });
});
