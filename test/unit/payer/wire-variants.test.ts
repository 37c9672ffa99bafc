// The lenient side of the wire: every attested variant is read into one domain shape, and what
// cannot be read is malformed_response naming the path of the offending field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, operationGroups, type ExchangeClient } from '../../../electron/payer';
import { decodeResponse } from '../../../electron/payer/executor';
import type { Operation } from '../../../electron/payer/operation';
import { startScriptedExchange, type ScriptedExchange } from './helpers/scripted-exchange';
import { page } from './helpers/wire-examples';

const g = operationGroups;

/** Decodes a 200 body (a value to JSON-encode, or raw text) as the operation would. */
function read<O>(op: Operation<never, O>, body: unknown, raw = false): O {
  const bodyText = raw ? String(body) : body === undefined ? '' : JSON.stringify(body);
  return decodeResponse(op, { status: 200, headers: { 'x-trace-id': 'tr-w' }, bodyText });
}

function malformed(op: Operation<never, unknown>, body: unknown, raw = false): ExchangeError {
  try {
    read(op, body, raw);
  } catch (error) {
    if (error instanceof ExchangeError) return error;
    throw error;
  }
  throw new Error('expected malformed_response');
}

describe('eligibility', () => {
  const nestedCovered = {
    requestIdType: 'National ID',
    requestIdNumber: '30000001',
    memberCrNumber: 'CR0000001',
    fullName: 'Wanjiku Kamau',
    statusCode: '10',
    statusDesc: 'Member found',
    dateOfBirth: '1990-01-01',
    gender: 'F',
    whitelistedForOTP: 'false',
    facilityBiometricsEnforced: true,
    facilityContracts: [{ fund: 'SHIF' }],
    schemes: [
      {
        schemeName: 'PHC',
        schemeId: '1',
        memberType: 'BENEFICIARY',
        coverage: { startDate: '2024-01-01', endDate: '2024-06-30', status: 0, reason: 'lapsed', possibleSolution: 'pay' },
      },
      {
        schemeName: 'SHIF',
        schemeId: 2,
        memberType: 'PRINCIPAL',
        policy: { startDate: '2024-07-01', endDate: '2025-06-30', number: 'POL-1' },
        coverage: { startDate: '2024-07-01', endDate: '2025-06-30', message: 'Active', status: '1' },
      },
    ],
  };

  it('reads the nested live shape and picks the covering scheme', () => {
    expect(read(g.eligibility.check, nestedCovered)).toEqual({
      found: true,
      covered: true,
      fullName: 'Wanjiku Kamau',
      crNumber: 'CR0000001',
      memberType: 'PRINCIPAL',
      coverage: { start: '2024-07-01', end: '2025-06-30' },
      message: 'Active',
      reason: undefined,
      possibleSolution: undefined,
      whitelistedForOTP: false,
      facilityBiometricsEnforced: true,
      schemes: [
        expect.objectContaining({ id: '1', name: 'PHC', covered: false, reason: 'lapsed', possibleSolution: 'pay' }),
        expect.objectContaining({ id: '2', name: 'SHIF', covered: true, policyNumber: 'POL-1' }),
      ],
      dateOfBirth: '1990-01-01',
      gender: 'F',
      requestIdNumber: '30000001',
      requestIdType: 'National ID',
      facilityContracts: [{ fund: 'SHIF' }],
    });
  });

  it('reads found-but-not-covered with its reason and remedy, and not found', () => {
    const notCovered = read(g.eligibility.check, {
      statusCode: '10',
      memberCrNumber: 'CR3',
      fullName: 'Otieno',
      whitelistedForOTP: true,
      schemes: [{ schemeName: 'SHIF', coverage: { status: 0, reason: 'Contributions not up to date', possibleSolution: 'Pay arrears' } }],
    });
    expect(notCovered).toMatchObject({ found: true, covered: false, reason: 'Contributions not up to date', possibleSolution: 'Pay arrears', whitelistedForOTP: true });
    expect(notCovered.facilityBiometricsEnforced).toBeUndefined();
    expect(read(g.eligibility.check, { statusCode: '00', statusDesc: 'Member not found', schemes: null })).toMatchObject({
      found: false,
      covered: false,
      message: 'Member not found',
      schemes: [],
    });
  });

  it("reads the contract's flat shape into the same object", () => {
    expect(
      read(g.eligibility.check, {
        message: 'Covered',
        requestIdNumber: '30000001',
        requestIdType: 'National ID',
        coverageStartDate: '2024-07-01',
        coverageEndDate: '2025-06-30',
        coverageType: [],
        fullName: 'Wanjiku Kamau',
        memberCrNumber: 'CR0000001',
        memberType: 'PRINCIPAL',
        possibleSolution: null,
        reason: null,
        status: 1,
      }),
    ).toMatchObject({ found: true, covered: true, crNumber: 'CR0000001', coverage: { start: '2024-07-01', end: '2025-06-30' }, schemes: [] });
    expect(read(g.eligibility.check, { status: '0', reason: 'not registered' })).toMatchObject({ found: false, covered: false, reason: 'not registered' });
  });

  it('names the missing status of a flat answer, and a bad nested field by its path', () => {
    expect(malformed(g.eligibility.check, { fullName: 'x' })).toMatchObject({ kind: 'malformed_response', field: 'status', traceId: 'tr-w' });
    expect(malformed(g.eligibility.check, { statusCode: '10', schemes: [{ coverage: { status: 1 } }, { coverage: { startDate: {} } }] })).toMatchObject({
      field: 'schemes[1].coverage.startDate',
      operation: 'eligibility.check',
    });
  });
});

describe('benefits', () => {
  it('reads sub-benefits by code or sub_benefit_code, paged or bare', () => {
    const paged = read(g.eligibility.subBenefits, page([{ code: 'SB1', name: 'Outpatient', accessPoint: 'OP and IP', allowedInterventions: ['SHA-02-001', { intervention_code: 'SHA-02-002' }] }], { next: 'http://x?page=2', totalPages: 2, count: 30 }));
    expect(paged).toMatchObject({ count: 30, page: 1, pageSize: 20, totalPages: 2, hasNext: true });
    expect(paged.items[0]).toMatchObject({ code: 'SB1', accessPoint: 'OP_AND_IP', allowedInterventions: ['SHA-02-001', 'SHA-02-002'] });
    const bare = read(g.eligibility.subBenefits, [{ sub_benefit_code: 'SB2', accessPoint: 'IP' }]);
    expect(bare).toMatchObject({ count: 1, hasNext: false, items: [{ code: 'SB2', accessPoint: 'IP' }] });
    expect(malformed(g.eligibility.subBenefits, page([{ name: 'no code' }]))).toMatchObject({ field: 'results[0].code' });
  });

  it('normalises every attested paymentMechanism spelling and recognises the scenario', () => {
    const entries = [
      { intervention_code: 'SHA-02-001', paymentMechanism: 'CAPITATION', accessPoint: 'OP', needsPreauth: false },
      { intervention_code: 'SHA-05-010', paymentMechanism: 'FEE_FOR_SERVICE', accessPoint: 'IP', needsPreauth: true, needsManualPreauthApproval: 'true' },
      { intervention_code: 'SHA-07-002', paymentMechanism: 'PER_DIEM', accessPoint: 'IP' },
      { intervention_code: 'SHA-07-003', paymentMechanism: 'per diem', accessPoint: 'IP' },
      { intervention_code: 'SHA-01-004', paymentMechanism: 'Fixed Fee for Service', accessPoint: 'OP and IP', protocolCode: 'P-4', applicableTariff: '2500' },
      { intervention_code: 'SHA-03-001', paymentMechanism: 'FEE FOR SERVICE', accessPoint: 'OP' },
      { intervention_code: 'SHA-03-002', paymentMechanism: 'Fee_for_service ', accessPoint: 'op' },
      { intervention_code: 'SHA-04-001', paymentMechanism: 'CASE BASED', accessPoint: 'IP' },
      { intervention_code: 'SHA-04-002', paymentMechanism: 'FEE_FOR_SERVICE', needsPreauth: 1 },
      { intervention_code: 'SHA-09-009', paymentMechanism: 'BARTER' },
    ];
    const result = read(g.eligibility.interventions, page(entries));
    expect(result.items.map((i) => [i.code, i.paymentMechanism, i.scenario, i.accessPoint])).toEqual([
      ['SHA-02-001', 'CAPITATION', 'capitation', 'OP'],
      ['SHA-05-010', 'FEE_FOR_SERVICE', 'elective-preauth', 'IP'],
      ['SHA-07-002', 'PER_DIEM', 'per-diem', 'IP'],
      ['SHA-07-003', 'PER_DIEM', 'per-diem', 'IP'],
      ['SHA-01-004', 'FIXED_FEE_FOR_SERVICE', 'emergency', 'OP_AND_IP'],
      ['SHA-03-001', 'FEE_FOR_SERVICE', 'fee-for-service', 'OP'],
      ['SHA-03-002', 'FEE_FOR_SERVICE', 'fee-for-service', 'OP'],
      ['SHA-04-001', 'CASE_BASED', 'case-based', 'IP'],
      ['SHA-04-002', 'FEE_FOR_SERVICE', 'preauth-required', undefined],
      ['SHA-09-009', 'BARTER', 'unrecognised', undefined],
    ]);
    expect(result.items[4]).toMatchObject({ protocolCode: 'P-4', applicableTariff: 2500 });
  });

  it('reads the kephLevelTarriff spelling and document types', () => {
    const [item] = read(g.eligibility.interventions, page([{ intervention_code: 'X', kephLevelTarriff: 1200, applicableDocumentTypes: ['LAB', { code: 'XRAY' }], requiredPreauthDocumentTypes: null }])).items;
    expect(item).toMatchObject({ kephLevelTariff: 1200, applicableDocumentTypes: ['LAB', 'XRAY'], requiredPreauthDocumentTypes: [] });
  });

  it('names the offending entry and field of a page', () => {
    expect(malformed(g.eligibility.interventions, page([{ intervention_code: 'A' }, { intervention_code: 'B', needsPreauth: 'maybe' }]))).toMatchObject({
      kind: 'malformed_response',
      field: 'results[1].needsPreauth',
    });
    expect(malformed(g.eligibility.interventions, { count: 1 })).toMatchObject({ field: 'results' });
  });
});

describe('consent', () => {
  const contact = { id: 7, contactValue: '+254714***898', contactType: 'PHO', isConfirmed: true, active: true, isMainContact: true };

  it('reads contacts as {count, results} or a bare array', () => {
    const expected = [{ id: '7', value: '+254714***898', type: 'PHO', confirmed: true, active: true, main: true }];
    expect(read(g.consent.contacts, { count: 1, results: [contact] })).toEqual(expected);
    expect(read(g.consent.contacts, [contact])).toEqual(expected);
    expect(read(g.consent.contacts, { count: 0, results: [] })).toEqual([]);
  });

  it('reads the biometric authorize answer with its verification link', () => {
    expect(
      read(g.consent.authorizeBiometric, {
        token: 'AT-1',
        guid: 'G-1',
        status: 'PENDING',
        label: 'Visit',
        expiry: '2025-01-01T10:10:00Z',
        ekycToken: 'ek',
        workStationId: 'WS-1',
        shaVerificationRequest: { embedExpiry: '600', embededToken: 'emb', requestId: 'R-1', requestUrl: 'http://127.0.0.1:9/authorize/G-1' },
      }),
    ).toMatchObject({ token: 'AT-1', guid: 'G-1', status: 'PENDING', verificationUrl: 'http://127.0.0.1:9/authorize/G-1', verificationRequestId: 'R-1' });
    expect(malformed(g.consent.authorizeBiometric, { token: 'AT-1', status: 'PENDING' })).toMatchObject({ field: 'guid' });
  });

  it('reads a visit-end authorize with discharge_auth_guid, or only guid, PENDING or AUTHORIZED', () => {
    expect(read(g.consent.authorizeDischarge, { guid: 'D-1', discharge_auth_guid: 'D-1', status: 'pending' })).toMatchObject({ dischargeAuthGuid: 'D-1', status: 'PENDING' });
    expect(read(g.consent.authorizeDischarge, { guid: 'D-2', status: 'AUTHORIZED' })).toMatchObject({ dischargeAuthGuid: 'D-2', status: 'AUTHORIZED' });
    expect(malformed(g.consent.authorizeDischarge, { status: 'AUTHORIZED' })).toMatchObject({ field: 'discharge_auth_guid' });
  });

  it('reads the authorization look-up as a record or {results: [record]}', () => {
    const record = { token: 'AT-1', guid: 'G-1', status: 'AUTHORIZED_PENDING_VISIT', patient_id: 'CR1', interventions: ['SHA-05-010'], service_type: 'INPATIENT', created_at: 't' };
    const expected = { token: 'AT-1', guid: 'G-1', status: 'AUTHORIZED_PENDING_VISIT', patientId: 'CR1', interventions: ['SHA-05-010'], serviceType: 'INPATIENT' };
    expect(read(g.consent.getAuthorization, record)).toMatchObject(expected);
    expect(read(g.consent.getAuthorization, { results: [record] })).toMatchObject(expected);
    expect(malformed(g.consent.getAuthorization, { results: [] })).toMatchObject({ field: 'results[0]' });
  });

  it('reads the reject outcome with or without the record, or an empty body', () => {
    expect(read(g.consent.rejectAuthorization, { message: 'rejected', authorization: { token: 'T', status: 'REJECTED' } })).toMatchObject({
      message: 'rejected',
      authorization: { status: 'REJECTED' },
    });
    expect(read(g.consent.rejectAuthorization, { message: 'ok' })).toEqual({ message: 'ok', authorization: undefined });
    expect(read(g.consent.rejectAuthorization, undefined)).toEqual({ message: undefined, authorization: undefined });
  });

  it('reads OTP confirmations as objects or sentences', () => {
    expect(read(g.consent.sendOtp, { message: 'OTP sent', contact: '+2547***1', expires_in: '300' })).toEqual({ message: 'OTP sent', contact: '+2547***1', expiresInSeconds: 300 });
    expect(read(g.consent.sendDischargeOtp, 'OTP sent', true)).toEqual({ message: 'OTP sent', contact: undefined, expiresInSeconds: undefined });
  });
});

describe('preauth, claims, emergency, prescriptions', () => {
  /** The portal's camelCase preauth. */
  const preauth = { id: 11, guid: 'P-G', token: 'AT', interventionCode: 'SHA-05-010', status: 'PENDING_DOCTOR_APPROVAL', totalEstimatedAmountForPreauth: 50000, finalApprovedAmount: null };

  it('reads preauths in camelCase [portal] as one object or a page {pageSize, results} [live]', () => {
    const expected = [{ id: '11', guid: 'P-G', consentToken: 'AT', interventionCode: 'SHA-05-010', status: 'PENDING_DOCTOR_APPROVAL', requestedAmount: 50000, approvedAmount: undefined }];
    expect(read(g.preauth.find, preauth)).toMatchObject(expected);
    expect(read(g.preauth.find, { pageSize: 20, results: [preauth] })).toMatchObject(expected);
    expect(read(g.preauth.create, preauth)).toMatchObject(expected[0] as object);
    expect(read(g.preauth.cancel, { ...preauth, status: 'CANCELLED' })).toMatchObject({ status: 'CANCELLED' });
    expect(malformed(g.preauth.find, { pageSize: 20, results: [{ ...preauth, status: 3 }] })).toMatchObject({ field: 'results[0].status' });
  });

  it('reads a snake_case preauth too (R reads both spellings), the camelCase key winning', () => {
    expect(read(g.preauth.find, { results: [{ id: 12, token: 'AT', intervention_code: 'SHA-05-011', status: 'ACTIVE', final_approved_amount: '42000.00' }] })).toMatchObject([
      { id: '12', interventionCode: 'SHA-05-011', status: 'ACTIVE', approvedAmount: 42000 },
    ]);
    expect(read(g.preauth.create, { ...preauth, intervention_code: 'IGNORED' })).toMatchObject({ interventionCode: 'SHA-05-010' });
  });

  it('names the field a preauth answer lacks, never inventing one', () => {
    expect(malformed(g.preauth.find, { pageSize: 1, results: [{ interventionCode: 'SHA-05-010', status: 'ACTIVE' }] })).toMatchObject({ field: 'results[0].id' });
    expect(malformed(g.preauth.create, { id: 3 })).toMatchObject({ field: 'status' });
    // A page that lost its list is not read as one preauth: the missing member is named.
    expect(malformed(g.preauth.find, { pageSize: 20, count: 1 })).toMatchObject({ field: 'results' });
  });

  it('reads the visit with authorization_code as the consent token', () => {
    expect(
      read(g.claims.createVisit, {
        authorization_code: 'CT-1',
        consent_token: 'CT-1',
        authorization_guid: 'G',
        claim_auth_status: 'AUTHORIZED',
        workflow_state: 'DRAFT',
        invoice_number: 'INV-1',
        visit_number: 9,
        visit_start: '2025-01-01T08:00:00Z',
        interventions: [{ intervention_code: 'SHA-02-001' }],
      }),
    ).toEqual({
      consentToken: 'CT-1',
      authorizationGuid: 'G',
      claimAuthStatus: 'AUTHORIZED',
      workflowState: 'DRAFT',
      invoiceNumber: 'INV-1',
      visitNumber: '9',
      visitStart: '2025-01-01T08:00:00Z',
      interventions: ['SHA-02-001'],
    });
    expect(malformed(g.claims.createVisit, { workflow_state: 'DRAFT' })).toMatchObject({ field: 'authorization_code' });
  });

  it('reads the preview the station reconciles against', () => {
    const preview = read(g.claims.preview, {
      consent_token: 'CT-1',
      workflow_state: 'SUBMITTED',
      lines: [{ line_guid: 'L1', intervention_code: 'SHA-02-001', unit_price: '500.50', quantity: 2, diagnoses: ['DA01'] }],
      doctor: { identification_number: 'A1', identification_type: 'registration_number', regulation_body: 'KMPDC' },
      attachments: [{ attachment_id: 'AT1', file_name: 'lab.pdf', content_type: 'application/pdf', size: 10 }],
      total_amount: 1001,
      partial_discharges: [],
      submitted_at: 't',
    });
    expect(preview).toMatchObject({
      consentToken: 'CT-1',
      workflowState: 'SUBMITTED',
      lines: [{ lineGuid: 'L1', unitPrice: 500.5, quantity: 2, amount: 1001 }],
      doctor: { identificationNumber: 'A1', regulationBody: 'KMPDC' },
      attachments: [{ id: 'AT1', fileName: 'lab.pdf' }],
      totalAmount: 1001,
    });
  });

  it('reads submit and discharge answers, and an empty 2xx', () => {
    expect(read(g.claims.submit, { message: 'ok', workflow_state: 'SUBMITTED', consent_token: 'CT', submitted_at: 't' })).toEqual({
      message: 'ok',
      consentToken: 'CT',
      workflowState: 'SUBMITTED',
      claimAuthStatus: undefined,
      submittedAt: 't',
    });
    expect(read(g.claims.discharge, undefined)).toMatchObject({ workflowState: undefined });
  });

  it('reads confirmations of removals: 204, a sentence, a JSON string or {message}', () => {
    expect(read(g.claims.removeDoctor, undefined)).toEqual({ message: undefined });
    expect(read(g.prescriptions.removeDoctor, 'Doctor removed', true)).toEqual({ message: 'Doctor removed' });
    expect(read(g.prescriptions.removeDoctor, 'Doctor removed')).toEqual({ message: 'Doctor removed' });
    expect(read(g.preauth.removeDoctor, { message: 'removed' })).toEqual({ message: 'removed' });
    expect(read(g.claims.removeLine, { data: { lines: [] }, message: 'Line removed' })).toEqual({ message: 'Line removed', data: { lines: [] } });
  });

  it('reads the emergency claim: authorization_code is its consent token, id its claim id', () => {
    const claim = { id: 'EC-1', claim_id: 1, authorization_code: 'E-1', workflow_state: 'draft', emergency_visit_expiry: '2025-01-02T02:00:00+03:00', invoice_number: 'INV/1', visit_start: '2025-01-01T02:00:00+03:00' };
    expect(read(g.emergency.createClaim, claim)).toMatchObject({ consentToken: 'E-1', claimId: 'EC-1', workflowState: 'DRAFT', expiresAt: '2025-01-02T02:00:00+03:00', invoiceNumber: 'INV/1' });
    expect(read(g.emergency.createClaim, { authorization_code: 'E-2', claim_id: 2 })).toMatchObject({ consentToken: 'E-2', claimId: '2', expiresAt: undefined });
    expect(malformed(g.emergency.createClaim, { consent_token: 'E-1', id: 'EC-1' })).toMatchObject({ field: 'authorization_code' });
    expect(malformed(g.emergency.identifyClaim, { authorization_code: 'E-1' })).toMatchObject({ field: 'id' });
  });

  it('reads protocol pages in either spelling, with the tariff as a number or numeric text', () => {
    const protocols = read(g.emergency.protocols, {
      count: 2,
      results: [
        { protocolCode: 'P-1', name: 'Trauma', applicableTariff: '3000', status: 'ACTIVE', intervention: [{ code: 'SHA-01-001' }, {}] },
        { protocol_code: 'P-2', applicable_tariff: 4500 },
      ],
    });
    expect(protocols.items).toEqual([
      { protocolCode: 'P-1', name: 'Trauma', applicableTariff: 3000, status: 'ACTIVE', interventionCodes: ['SHA-01-001'] },
      { protocolCode: 'P-2', name: undefined, applicableTariff: 4500, status: undefined, interventionCodes: [] },
    ]);
    expect(malformed(g.emergency.protocols, { results: [{ name: 'Trauma' }] })).toMatchObject({ field: 'results[0].protocolCode' });
    expect(read(g.emergency.addProtocol, { id: 'L-1', item_code: 'P-1', line_total_amount: '3000.00' })).toMatchObject({ lineId: 'L-1', total: 3000 });
    expect(malformed(g.emergency.addProtocol, { item_code: 'P-1' })).toMatchObject({ field: 'id' });
  });

  it('reads prescriptions and dispenses', () => {
    expect(read(g.prescriptions.create, { code: 'RX1', doctorReviewStatus: 'pending', guid: 'g', id: 5, replicated: 'NO', status: 'active', dosage: [{ frequency: 3 }] })).toEqual({
      id: '5',
      guid: 'g',
      code: 'RX1',
      status: 'ACTIVE',
      replicated: 'NO',
      doctorReviewStatus: 'PENDING',
    });
    expect(malformed(g.prescriptions.create, { id: 5, doctorReviewStatus: [] })).toMatchObject({ field: 'doctorReviewStatus' });
    expect(read(g.prescriptions.dispense, { id: 1, status: 'DISPENSED', dispenseDosages: [], dispensingDoctors: [] })).toEqual([{ id: '1', status: 'DISPENSED' }]);
    expect(read(g.prescriptions.dispense, [{ id: 1, status: 'DISPENSED' }])).toEqual([{ id: '1', status: 'DISPENSED' }]);
    expect(malformed(g.prescriptions.dispense, [{ status: 'DISPENSED' }])).toMatchObject({ field: '[0].id' });
  });

  it('reads FHIR bundles and security labels', () => {
    expect(
      read(g.shr.observations, {
        resourceType: 'Bundle',
        type: 'searchset',
        total: 1,
        entry: [{ resource: { resourceType: 'Observation', id: 'o1' } }],
        link: [{ relation: 'next', url: 'tok-2' }],
      }),
    ).toEqual({ total: 1, resources: [{ resourceType: 'Observation', id: 'o1' }], next: 'tok-2' });
    expect(malformed(g.shr.observations, { resourceType: 'Patient' })).toMatchObject({ field: 'resourceType' });
    expect(read(g.shr.securityLabels, [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', display: 'restricted' }, 'N'])).toEqual([
      { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', display: 'restricted' },
      { system: undefined, code: 'N', display: undefined },
    ]);
  });
});

describe('bodies that are not what was expected', () => {
  it('refuses an empty body or a non-JSON body where JSON is expected', () => {
    expect(malformed(g.claims.preview, undefined)).toMatchObject({ field: '', message: /empty body/ });
    expect(malformed(g.claims.preview, '<html>oops</html>', true)).toMatchObject({ field: '', message: /not JSON/ });
  });

  describe('over HTTP', () => {
    let exchange: ScriptedExchange;
    let client: ExchangeClient;
    beforeAll(async () => {
      exchange = await startScriptedExchange({
        routes: {
          'GET /api/v1/patients': () => ({ status: 200, text: '<html><body>Login</body></html>', headers: { 'content-type': 'text/html' } }),
          'POST /api/v1/claims/preview': () => ({ status: 200, json: { consent_token: 'CT', lines: [{ unit_price: 'free' }] } }),
          'GET /api/v1/patients/contacts': () => ({ status: 302, text: '', headers: { location: '/login' } }),
        },
      });
      client = createExchangeClient({ baseUrl: exchange.url, credentials: { clientId: 'a', clientSecret: 'b' } });
    });
    afterAll(async () => {
      await client.close();
      await exchange.close();
    });

    it('turns a 200 HTML page into malformed_response', async () => {
      await expect(client.registry.findPatient({ identification_number: '1', identification_type: 'National ID' })).rejects.toMatchObject({
        kind: 'malformed_response',
        status: 200,
        operation: 'registry.findPatient',
      });
    });

    it('names the offending field of a JSON answer', async () => {
      await expect(client.claims.preview({ consent_token: 'CT' })).rejects.toMatchObject({ kind: 'malformed_response', field: 'lines[0].unit_price' });
    });

    it('treats a redirect as an unexpected answer', async () => {
      await expect(client.consent.contacts({ patient_id: 'CR1' })).rejects.toMatchObject({ kind: 'malformed_response', status: 302 });
    });
  });
});
