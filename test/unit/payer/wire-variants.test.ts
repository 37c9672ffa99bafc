// The lenient side of the wire: every attested variant is read into one domain shape, and what
// cannot be read is malformed_response naming the path of the offending field.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    expect(malformed(g.eligibility.interventions, page([{ name: 'No code' }]))).toMatchObject({ field: 'results[0].code' });
  });

  it('reads the portal\'s entries: code, overallTariff as a number or numeric text; an unknown sub-benefit\'s []', () => {
    const [item] = read(g.eligibility.interventions, page([{ code: 'SHA-12-001', name: 'Consultation', paymentMechanism: 'CAPITATION', overallTariff: '0', kephLevelTarriff: '0' }])).items;
    expect(item).toMatchObject({ code: 'SHA-12-001', scenario: 'capitation', tariff: 0, kephLevelTariff: 0 });
    expect(read(g.eligibility.interventions, []).items).toEqual([]);
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
        shaVerificationRequest: { embedExpiry: 120, embededToken: 'emb', requestId: 'R-1', requestUrl: 'http://127.0.0.1:9/authorize/G-1' },
      }),
    ).toMatchObject({
      token: 'AT-1',
      guid: 'G-1',
      status: 'PENDING',
      expiry: '2025-01-01T10:10:00Z',
      verificationUrl: 'http://127.0.0.1:9/authorize/G-1',
      verificationRequestId: 'R-1',
      verificationExpiresInSeconds: 120,
    });
    expect(malformed(g.consent.authorizeBiometric, { token: 'AT-1', status: 'PENDING' })).toMatchObject({ field: 'guid' });
  });

  it('reads embedExpiry as seconds (a number, or one sent as text), never as a date', () => {
    const answer = { token: 'AT-1', guid: 'G-1', status: 'PENDING', expiry: '2025-01-01T10:10:00Z' };
    expect(read(g.consent.authorizeBiometric, { ...answer, shaVerificationRequest: { embedExpiry: 0 } })).toMatchObject({ verificationExpiresInSeconds: 0 });
    expect(read(g.consent.authorizeBiometric, { ...answer, shaVerificationRequest: { embedExpiry: '120' } })).toMatchObject({ verificationExpiresInSeconds: 120 });
    // A date where seconds are due is not read as some number: it is named.
    expect(malformed(g.consent.authorizeBiometric, { ...answer, shaVerificationRequest: { embedExpiry: '2025-01-01T10:10:00Z' } })).toMatchObject({
      field: 'shaVerificationRequest.embedExpiry',
    });
  });

  it('reads a visit-end authorize with discharge_auth_guid, or only guid, PENDING or AUTHORIZED', () => {
    expect(read(g.consent.authorizeDischarge, { guid: 'D-1', discharge_auth_guid: 'D-1', status: 'pending' })).toMatchObject({ dischargeAuthGuid: 'D-1', status: 'PENDING' });
    expect(read(g.consent.authorizeDischarge, { guid: 'D-2', status: 'AUTHORIZED' })).toMatchObject({ dischargeAuthGuid: 'D-2', status: 'AUTHORIZED' });
    expect(malformed(g.consent.authorizeDischarge, { status: 'AUTHORIZED' })).toMatchObject({ field: 'guid' });
  });

  it('reads the authorization look-up as a record, a list (UAT) or {results: [record]}', () => {
    const record = {
      token: 'AT-1',
      guid: 'G-1',
      status: 'AUTHORIZED_PENDING_VISIT',
      beneficiaryCode: 'CR1',
      authorizationReason: 'pre-visit',
      interventions: [{ code: 'SHA-05-010', name: 'Appendectomy', needsPreauth: true, subBenefitCode: 'SB-IP' }],
    };
    const expected = { token: 'AT-1', guid: 'G-1', status: 'AUTHORIZED_PENDING_VISIT', patientId: 'CR1', reason: 'pre-visit', interventions: ['SHA-05-010'] };
    expect(read(g.consent.getAuthorization, record)).toMatchObject(expected);
    expect(read(g.consent.getAuthorization, [record])).toMatchObject(expected);
    expect(read(g.consent.getAuthorization, { results: [record] })).toMatchObject(expected);
    expect(read(g.consent.getAuthorization, { ...record, interventions: ['SHA-05-010'] })).toMatchObject(expected);
    expect(malformed(g.consent.getAuthorization, { results: [] })).toMatchObject({ field: 'results[0]' });
    expect(malformed(g.consent.getAuthorization, { ...record, status: 7 })).toMatchObject({ field: 'status' });
  });

  it('reads the facility’s authorizations as every row of a list or {results}, an empty list as none, a bad row as malformed', () => {
    const row = { token: 'AT-1', guid: 'G-1', status: 'AUTHORIZED', label: 'OTP', beneficiaryCode: 'CR1', interventions: [{ code: 'SHA-12-001', name: 'Consultation' }] };
    const other = { ...row, token: 'AT-2', guid: 'G-2', status: 'CLOSED', beneficiaryCode: 'CR2' };
    expect(read(g.consent.listFacilityAuthorizations, [row, other])).toMatchObject([
      { token: 'AT-1', guid: 'G-1', status: 'AUTHORIZED', label: 'OTP', patientId: 'CR1', interventions: ['SHA-12-001'] },
      { token: 'AT-2', status: 'CLOSED', patientId: 'CR2' },
    ]);
    expect(read(g.consent.listFacilityAuthorizations, { results: [row] })).toHaveLength(1);
    expect(read(g.consent.listFacilityAuthorizations, [])).toEqual([]);
    expect(malformed(g.consent.listFacilityAuthorizations, [row, { ...other, status: 7 }])).toMatchObject({ field: '[1].status' });
  });

  it('reads the reject outcome as its message, or an empty body', () => {
    expect(read(g.consent.rejectAuthorization, { message: 'The authorization has been closed.' })).toEqual({ message: 'The authorization has been closed.' });
    expect(read(g.consent.rejectAuthorization, undefined)).toEqual({ message: undefined });
  });

  it('reads the whitelist request (camelCase) and its status as a page, naming what it cannot read', () => {
    expect(read(g.consent.requestOtpWhitelist, { guid: 'W-1', status: 'pending', reasonType: 'OLD', beneficiaryCrId: 'CR1' })).toEqual({ guid: 'W-1', status: 'PENDING', reasonType: 'OLD' });
    const status = read(g.consent.otpWhitelistStatus, { count: 1, results: [{ guid: 'W-1', status: 'APPROVED', reasonType: 'OLD', biometricsAttempt: 2 }] });
    expect(status.items).toEqual([{ guid: 'W-1', status: 'APPROVED', reasonType: 'OLD' }]);
    expect(read(g.consent.otpWhitelistStatus, [{ guid: 'W-1', status: 'PENDING' }]).items).toHaveLength(1);
    // The old one-object answer is not a page: it is reported, not guessed at.
    expect(malformed(g.consent.otpWhitelistStatus, { guid: 'W-1', status: 'PENDING' })).toMatchObject({ field: 'results' });
    expect(malformed(g.consent.requestOtpWhitelist, { status: 'PENDING' })).toMatchObject({ field: 'guid' });
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
        id: 'C-1',
        authorization_code: 'CT-1',
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
    // The sandbox's old consent_token alias is no answer of the exchange's.
    expect(malformed(g.claims.createVisit, { consent_token: 'CT-1', workflow_state: 'DRAFT' })).toMatchObject({ field: 'authorization_code' });
  });

  const line = { id: 'L1', intervention_code: 'SHA-02-001', item_code: 'C-01', unit_price: '500.50', quantity: 2, line_total_amount: '1001.00', charge_date: '2025-07-01' };
  const livePreview = {
    id: 'C-9',
    authorization_code: 'CT-1',
    workflow_state: 'DRAFT',
    claim_auth_status: 'AUTHORIZED',
    service_type: 'OUTPATIENT',
    invoices: [
      { id: 'IV-1', invoice_number: 'INV/13545/75385', workflow_state: 'VALID', total_inv_amount: '1001.00', lines: [line], doctors: [{ name: 'Dr. A' }] },
      { invoice_number: 'INV/13545/75386', lines: [{ ...line, id: 'L2' }] },
    ],
    claim_diagnoses: [{ claim_diagnosis_id: 4, diagnosis_code: 'DA01', diagnosis_name: 'Caries', intervention_code: 'SHA-02-001', is_flagged_diagnosis: 'false' }],
    claim_attachments: [{ id: 'AT1', title: 'Lab', attachment_type: 'LAB_RESULTS', retry_count: 0 }],
    total_claim_amount: '2002.00',
    required_preauth_document_types: null,
  };

  it('reads the live preview: lines in invoices[].lines, diagnoses in claim_diagnoses, numbers sent as text', () => {
    expect(read(g.claims.preview, livePreview)).toMatchObject({
      consentToken: 'CT-1',
      claimId: 'C-9',
      workflowState: 'DRAFT',
      invoiceNumber: 'INV/13545/75385',
      lines: [
        { id: 'L1', interventionCode: 'SHA-02-001', itemCode: 'C-01', unitPrice: 500.5, quantity: 2, amount: 1001, chargeDate: '2025-07-01' },
        { id: 'L2', unitPrice: 500.5 },
      ],
      invoices: [{ invoiceNumber: 'INV/13545/75385', totalAmount: 1001, doctors: [{ name: 'Dr. A' }] }, { invoiceNumber: 'INV/13545/75386', doctors: undefined }],
      diagnoses: [{ code: 'DA01', name: 'Caries', interventionCode: 'SHA-02-001', id: '4', flagged: false }],
      attachments: [{ id: 'AT1', title: 'Lab', attachmentType: 'LAB_RESULTS' }],
      totalAmount: 2002,
      hasDoctor: true,
    });
  });

  it("reads the document types that apply to each of the claim's interventions, and none where an intervention does not say", () => {
    const interventions = [
      { intervention_code: 'SHA-02-001', workflow_state: 'ACTIVE', applicable_document_types: ['INVOICE', { code: 'LAB_RESULTS' }, ''] },
      { intervention_code: 'SHA-04-001', applicable_document_types: null },
      'SHA-05-001',
      { code: 'SHA-06-001' },
    ];
    expect(read(g.claims.preview, { ...livePreview, interventions })).toMatchObject({
      interventions: ['SHA-02-001', 'SHA-04-001', 'SHA-05-001', 'SHA-06-001'],
      documentTypes: [{ interventionCode: 'SHA-02-001', applicable: ['INVOICE', 'LAB_RESULTS'] }],
    });
    expect(read(g.claims.preview, livePreview)).toMatchObject({ documentTypes: [] });
  });

  it('refuses a preview it cannot reconcile against, naming the field, rather than reading an empty claim', () => {
    const without = (key: string) => Object.fromEntries(Object.entries(livePreview).filter(([k]) => k !== key));
    for (const field of ['invoices', 'claim_diagnoses', 'claim_attachments', 'total_claim_amount']) {
      expect(malformed(g.claims.preview, without(field))).toMatchObject({ kind: 'malformed_response', field });
    }
    // The station's old reading of the wire: top-level lines and no invoices.
    expect(malformed(g.claims.preview, { consent_token: 'CT', lines: [{ line_guid: 'L1' }], diagnoses: [], attachments: [], total_amount: 1 })).toMatchObject({ field: 'invoices' });
    expect(malformed(g.claims.preview, { ...livePreview, invoices: [{ invoice_number: 'I', lines: [{ ...line, id: undefined }] }] })).toMatchObject({ field: 'invoices[0].lines[0].id' });
    expect(malformed(g.claims.preview, { ...livePreview, invoices: [{ invoice_number: 'I' }] })).toMatchObject({ field: 'invoices[0].lines' });
    expect(malformed(g.claims.preview, { ...livePreview, claim_diagnoses: [{ diagnosis_name: 'no code' }] })).toMatchObject({ field: 'claim_diagnoses[0].diagnosis_code' });
  });

  it('reads a billing line answer as the line itself; an answer without the line id is malformed, never an invented one', () => {
    expect(read(g.claims.addBilling, line)).toEqual({
      id: 'L1',
      interventionCode: 'SHA-02-001',
      itemCode: 'C-01',
      itemName: undefined,
      unitPrice: 500.5,
      quantity: 2,
      amount: 1001,
      netAmount: undefined,
      chargeDate: '2025-07-01',
      schemeCode: undefined,
      active: undefined,
      doctorName: undefined,
    });
    expect(read(g.claims.addLine, { ...line, id: 42 })).toMatchObject({ id: '42' });
    expect(malformed(g.claims.addBilling, { message: 'Billing saved', line_guid: 'L-1', lines: [], total_amount: 500 })).toMatchObject({ field: 'id' });
    expect(malformed(g.claims.addLine, { ...line, id: ' ' })).toMatchObject({ field: 'id' });
    expect(malformed(g.claims.editLine, { data: {}, message: 'Line updated' })).toMatchObject({ field: 'id' });
  });

  it('reads an added diagnosis and an uploaded attachment', () => {
    expect(read(g.claims.addDiagnosis, { claim: 'C', diagnosis: 'x', diagnosis_code: 'CA40', diagnosis_name: 'Pneumonia', intervention_code: 'SHA-02-001', is_flagged_diagnosis: false, recorded_on: 't' })).toEqual({
      code: 'CA40',
      name: 'Pneumonia',
      interventionCode: 'SHA-02-001',
      id: undefined,
      flagged: false,
      recordedOn: 't',
    });
    expect(malformed(g.claims.addDiagnosis, { message: 'added' })).toMatchObject({ field: 'diagnosis_code' });
    expect(read(g.claims.uploadAttachment, { id: 'A-1', title: 't', attachment_type: 'LAB_RESULTS', retry_count: 0 })).toMatchObject({ id: 'A-1', attachmentType: 'LAB_RESULTS' });
    expect(malformed(g.claims.uploadAttachment, { attachment_id: 'A-1', file_name: 'lab.pdf' })).toMatchObject({ field: 'id' });
  });

  it('reads submit, discharge and close as the claim object; an empty 2xx is not a claim state', () => {
    expect(read(g.claims.submit, { ...livePreview, workflow_state: 'SUBMITTED', invoice_number: 'INV/13545/75385' })).toEqual({
      consentToken: 'CT-1',
      workflowState: 'SUBMITTED',
      claimAuthStatus: 'AUTHORIZED',
      invoiceNumber: 'INV/13545/75385',
      dischargedOn: undefined,
      dischargeStatus: undefined,
      submittedAt: undefined,
    });
    expect(read(g.claims.discharge, { workflow_state: 'SUBMITTED', discharged_on: '2025-07-03T14:30:00+03:00' })).toMatchObject({ dischargedOn: '2025-07-03T14:30:00+03:00' });
    expect(malformed(g.claims.discharge, undefined)).toMatchObject({ field: '', message: /empty body/ });
    expect(malformed(g.claims.close, { message: 'Claim closed' })).toMatchObject({ field: 'workflow_state' });
    expect(read(g.claims.resubmit, { line_id: 'L1', status: 'resubmitted', message: 'ok', resubmitted_at: 't' })).toEqual({ lineId: 'L1', status: 'RESUBMITTED', message: 'ok', resubmittedAt: 't' });
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
    ).toEqual({ total: 1, resources: [{ resourceType: 'Observation', id: 'o1' }], next: 'tok-2', nextPageToken: undefined });
    expect(
      read(g.shr.serviceRequests, { resourceType: 'Bundle', type: 'searchset', link: [{ relation: 'next', url: 'https://shr.sha.go.ke?page_token=Bnm8Qm7w' }] }),
    ).toMatchObject({ resources: [], next: 'https://shr.sha.go.ke?page_token=Bnm8Qm7w', nextPageToken: 'Bnm8Qm7w' });
    expect(malformed(g.shr.observations, { resourceType: 'Patient' })).toMatchObject({ field: 'resourceType' });
  });

  it('reads the security label catalogue from each envelope R has seen, and names an entry without code', () => {
    const r = { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', display: 'restricted', category: 'confidentiality' };
    const expected = [{ system: r.system, code: 'R', display: 'restricted', category: 'confidentiality' }];
    expect(read(g.shr.securityLabels, [r])).toEqual(expected);
    expect(read(g.shr.securityLabels, { labels: [r] })).toEqual(expected);
    expect(read(g.shr.securityLabels, { data: [r] })).toEqual(expected);
    expect(read(g.shr.securityLabels, { data: { labels: [r] } })).toEqual(expected);
    expect(read(g.shr.securityLabels, { labels: [{ label: 'HIV', name: 'HIV/AIDS information sensitivity' }] })).toEqual([
      { system: undefined, code: 'HIV', display: 'HIV/AIDS information sensitivity', category: undefined },
    ]);
    expect(malformed(g.shr.securityLabels, { data: { labels: [r, { display: 'no code' }] } })).toMatchObject({ field: 'data.labels[1].code' });
    expect(malformed(g.shr.securityLabels, ['N'])).toMatchObject({ field: '[0]' });
  });
});

describe('eligibility on the live wire: numbers where the docs say integer, what must be there', () => {
  // R's fixture (tests/fixtures/eligibility_member_found.json): requestIdType and schemeId numbers, coverage status "1".
  const member = {
    requestIdType: 2,
    requestIdNumber: '00000000',
    whitelistedForOTP: false,
    facilityBiometricsEnforced: false,
    facilityContracts: null,
    memberCrNumber: 'CR0000000000000-0',
    fullName: 'TEST MEMBER',
    statusCode: '10',
    statusDesc: 'Member found. Check Schemes for coverages',
    schemes: [
      {
        schemeName: 'UHC',
        schemeId: 1,
        memberType: 'PRIMARY',
        policy: { startDate: '2024-10-01', endDate: '2034-09-30', number: 'UHC-BE3MMPW5' },
        coverage: { startDate: '2024-10-01', endDate: '2034-09-30', message: 'The individual is covered.', reason: 'Payment is up to Date. ', status: '1' },
        principalContributor: { idNumber: '00000000', idType: 'NATIONAL_ID', crNumber: 'CR0000000000000-0', name: 'TEST MEMBER', relationship: '', employmentType: 'SELF_EMPLOYED', employerDetails: {} },
      },
    ],
  };

  it("reads R's live member: numbers as text, the principal's CR number and the policy number for covers", () => {
    const e = read(g.eligibility.check, member);
    expect(e).toMatchObject({ found: true, covered: true, requestIdType: '2', facilityContracts: [], facilityBiometricsEnforced: false });
    expect(e.schemes).toEqual([expect.objectContaining({ id: '1', name: 'UHC', covered: true, policyNumber: 'UHC-BE3MMPW5', principalCrNumber: 'CR0000000000000-0' })]);
  });

  it('refuses an answer without statusCode, or a scheme without its coverage status, naming the field', () => {
    const { statusCode: _statusCode, ...noCode } = member;
    expect(malformed(g.eligibility.check, noCode)).toMatchObject({ kind: 'malformed_response', field: 'statusCode' });
    const scheme = member.schemes[0]!;
    expect(malformed(g.eligibility.check, { ...member, schemes: [{ ...scheme, coverage: { message: 'x' } }] })).toMatchObject({ field: 'schemes[0].coverage.status' });
    expect(malformed(g.eligibility.check, { ...member, schemes: [{ schemeName: 'UHC' }] })).toMatchObject({ field: 'schemes[0].coverage' });
  });
});

describe('sub-benefits, utilization, covers and POMSF on the live wire', () => {
  it("reads R's sub-benefits page and K's snake_case spellings alike", () => {
    const pageOfSubBenefits = read(g.eligibility.subBenefits, {
      count: 1,
      pageSize: 10000,
      currentPage: 1,
      totalPages: 1,
      results: [{ id: 3, code: 'SHA-12-SC-01', name: 'Outpatient Care', accessPoint: 'OP', fund: '', parentBenefit: 'Outpatient Services', parentBenefitCode: 'SHA-12' }],
    });
    expect(pageOfSubBenefits.items).toEqual([{ code: 'SHA-12-SC-01', name: 'Outpatient Care', accessPoint: 'OP', fund: '', parentBenefitCode: 'SHA-12', cover: undefined, allowedInterventions: [] }]);
    expect(read(g.eligibility.subBenefits, [{ code: 'SHA-08-SC-02', access_point: 'OP and IP', parent_benefit_code: 'SHA-08' }]).items[0]).toMatchObject({ accessPoint: 'OP_AND_IP', parentBenefitCode: 'SHA-08' });
  });

  it('reads utilization as the documented object, a bare list per limit scope, or {results}', () => {
    const documented = {
      code: 'code',
      crId: 'CR1',
      limitScope: 'INDIVIDUAL',
      individualMaxLimit: 50000,
      individualUtilisedLimit: 500,
      utilizationDays: 0,
      computationalDetail: { eligibility: true, limitAvailableAmount: 49500, nextAvailableDate: '2026-07-01' },
      fundUtilizationLimit: [{ fundType: 'SHIF', maxAmount: 50000, utilisedAmount: 500, availableAmount: 49500 }],
    };
    const [one] = read(g.eligibility.utilization, documented);
    expect(one).toMatchObject({ limitScope: 'INDIVIDUAL', individualMaxLimit: 50000, eligible: true, limitAvailableAmount: 49500, funds: [{ fundType: 'SHIF', availableAmount: 49500 }] });
    const scopes = read(g.eligibility.utilization, [
      { limitScope: 'INDIVIDUAL', individualMaxLimit: '50000', individualUtilisedLimit: '500' },
      { limitScope: 'HOUSEHOLD', householdMaxLimit: 100000, householdUtilisedLimit: 2000 },
    ]);
    expect(scopes.map((u) => [u.limitScope, u.individualMaxLimit ?? u.householdMaxLimit])).toEqual([
      ['INDIVIDUAL', 50000],
      ['HOUSEHOLD', 100000],
    ]);
    expect(read(g.eligibility.utilization, { results: [documented] })).toHaveLength(1);
    expect(malformed(g.eligibility.utilization, [{ individualMaxLimit: 'plenty' }])).toMatchObject({ field: '[0].individualMaxLimit' });
  });

  it('reads any 2xx of the covers call as the cover set', () => {
    expect(read(g.eligibility.setCover, { message: 'Cover set' })).toEqual({ message: 'Cover set' });
    expect(read(g.eligibility.setCover, {})).toEqual({ message: undefined });
  });

  it('reads POMSF policies and their benefit pots, keeping an unstated balance unknown, and names a missing memberPolicies', () => {
    const balance = read(g.eligibility.pomsfBalance, {
      memberNumber: 'CR5',
      parentNumber: 'CR5',
      relationshipType: 'SELF',
      familyMembers: [{ memberNumber: 'CR6' }],
      memberPolicies: [
        {
          policy: { PolicyYear: '2026', policyCode: 'P-1', schemeName: 'POMSF', status: 'ACTIVE', totalBenefit: 21 },
          benefit: [
            { benefitId: 77, name: 'Eye Health', benefitCode: 'SHA-05', limit: 40000, benefitShared: 'FAMILY SHARED', balance: [{ member: 'm1', balance: 40000 }, { member: 'm2' }], subBenefit: [{ subBenefitCode: 'SHA-05-SC-01', limit: '40000', balance: [] }] },
          ],
        },
      ],
    });
    expect(balance).toMatchObject({ memberNumber: 'CR5', relationshipType: 'SELF', raw: { familyMembers: [{ memberNumber: 'CR6' }] } });
    expect(balance.policies[0]).toMatchObject({ policyYear: '2026', policyCode: 'P-1', status: 'ACTIVE' });
    expect(balance.policies[0]?.benefits[0]).toEqual({
      code: 'SHA-05',
      name: 'Eye Health',
      type: undefined,
      shared: 'FAMILY SHARED',
      limit: 40000,
      balances: [
        { member: 'm1', balance: 40000 },
        { member: 'm2', balance: undefined },
      ],
      subBenefits: [{ code: 'SHA-05-SC-01', name: undefined, type: undefined, shared: undefined, limit: 40000, balances: [], subBenefits: [] }],
    });
    expect(malformed(g.eligibility.pomsfBalance, { memberNumber: 'CR5' })).toMatchObject({ field: 'memberPolicies' });
    expect(malformed(g.eligibility.pomsfBalance, [{ memberNumber: 'CR5' }])).toMatchObject({ field: '' });
  });
});

describe('registry look-ups on the live wire', () => {
  // A row of R's live UAT capture (tests/contract/adapters/test_facility_registry.py), abridged.
  const nairobiWest = {
    registrationNumber: '000516',
    frCode: 'FID-47-108846-4',
    shaContractStatus: '',
    officialName: 'THE NAIROBI WEST HOSPITAL LIMITED',
    kephLevel: 'LEVEL 6B',
    address: { county: 'NAIROBI', latitude: '', longitude: '' },
    bedOccupancy: { totalBeds: 458, numberOfCots: 0 },
    SHAOperationStatus: { operationalStatus: 'ACTIVE', suspensionReason: '' },
  };

  it('reads facilities from a bare array, a bare object, or a results / data wrapper', () => {
    const expected = [{ code: 'FID-47-108846-4', name: 'THE NAIROBI WEST HOSPITAL LIMITED', level: 'LEVEL 6B', shaOperationalStatus: 'ACTIVE', shaContractStatus: undefined, raw: nairobiWest }];
    expect(read(g.lookups.searchFacilities, [nairobiWest])).toEqual(expected);
    expect(read(g.lookups.searchFacilities, nairobiWest)).toEqual(expected);
    expect(read(g.lookups.searchFacilities, { status: 'success', results: [nairobiWest] })).toEqual(expected);
    expect(read(g.lookups.searchFacilities, { data: { results: [nairobiWest] } })).toEqual(expected);
    expect(read(g.lookups.searchFacilities, { data: nairobiWest })).toEqual(expected);
    expect(read(g.lookups.searchFacilities, [])).toEqual([]);
  });

  it('names a facility without its registry code rather than listing it nameless', () => {
    expect(malformed(g.lookups.searchFacilities, [nairobiWest, { officialName: 'No code' }])).toMatchObject({ field: '[1].frCode' });
    expect(malformed(g.lookups.searchFacilities, { officialName: 'No code' })).toMatchObject({ field: 'frCode' });
    expect(malformed(g.lookups.searchFacilities, { results: [{ officialName: 'No code' }] })).toMatchObject({ field: 'results[0].frCode' });
  });

  it("reads the professional's membership and licences from {message: …}", () => {
    const professional = read(g.lookups.searchProfessionals, {
      message: {
        membership: { id: 'H1', status: 'ACTIVE', full_name: 'Dr Achieng Odhiambo', registration_id: 'A12345', licensing_body: 'KMPDC', specialty: 'General practice', is_active: 1 },
        licenses: [{ id: 'L1', license_type: 'PRACTICE', license_start: '2026-01-01', license_end: '2026-12-31' }],
        professional_details: { professional_cadre: 'Medical Officer' },
      },
    });
    expect(professional).toMatchObject({ registrationId: 'A12345', fullName: 'Dr Achieng Odhiambo', licensingBody: 'KMPDC', active: true, licences: [{ type: 'PRACTICE', end: '2026-12-31' }] });
    expect(professional.message).toMatchObject({ professional_details: { professional_cadre: 'Medical Officer' } });
    expect(malformed(g.lookups.searchProfessionals, { message: 'not found' })).toMatchObject({ field: 'message' });
    expect(malformed(g.lookups.searchProfessionals, { message: { licenses: [] } })).toMatchObject({ field: 'message.membership' });
  });

  it('reads bed occupancy counts, a total of 0 beside filled per-type counts included, and names a missing bed_occupancy_rate', () => {
    expect(read(g.lookups.bedOccupancy, { name: 'KNH', bp_level: 'LEVEL 6', bed_occupancy_rate: { total_number_of_bed: 0, number_of_normal_bed: 1889, number_of_icu_bed: 93, icu_visits: '40' } })).toEqual({
      name: 'KNH',
      level: 'LEVEL 6',
      beds: { total: 0, normal: 1889, icu: 93, hdu: undefined, dialysis: undefined, babyCots: undefined },
      visits: { inpatient: undefined, normal: undefined, icu: 40, hdu: undefined, dialysis: undefined, newborn: undefined },
    });
    expect(malformed(g.lookups.bedOccupancy, { name: 'KNH' })).toMatchObject({ field: 'bed_occupancy_rate' });
  });

  it('reads callback endpoints by endpoint_id or id, as a bare array or {data}', () => {
    expect(read(g.callbacks.listEndpoints, [{ endpoint_id: 'EP-1', base_url: 'https://h.example.org', entity_type: 'claim', is_active: 'true' }])).toEqual([
      { id: 'EP-1', name: undefined, baseUrl: 'https://h.example.org', entityType: 'claim', environment: undefined, authType: undefined, active: true, facilityCode: undefined, signingSecret: undefined },
    ]);
    expect(read(g.callbacks.listEndpoints, { data: [{ id: 'EP-2' }] })).toMatchObject([{ id: 'EP-2' }]);
    expect(malformed(g.callbacks.createEndpoint, { name: 'no id' })).toMatchObject({ field: 'endpoint_id' });
    expect(read(g.callbacks.createOperation, { operation_id: 'OP-1', path_url_override: 'https://elsewhere.example.org/hook' })).toMatchObject({ id: 'OP-1', pathUrlOverride: 'https://elsewhere.example.org/hook' });
  });
});

describe('the documented billing answers (test/fixtures/wire)', () => {
  const dir = join(__dirname, '../../fixtures/wire');
  const fixtures = readdirSync(dir)
    .filter((f) => f.startsWith('claims.') && f.endsWith('.json'))
    .map((f) => ({ file: f, ...(JSON.parse(readFileSync(join(dir, f), 'utf8')) as { operation: string; status: number; body: unknown }) }));

  it('covers the line, the preview and the claim object', () => {
    expect(fixtures.map((f) => f.operation)).toEqual(expect.arrayContaining(['claims.addBilling', 'claims.addLine', 'claims.preview', 'claims.submit', 'claims.discharge']));
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s is read by the client', (_file, fixture) => {
    const [group, key] = fixture.operation.split('.') as [keyof typeof g, string];
    const op = (g[group] as unknown as Record<string, Operation<never, unknown>>)[key];
    expect(op, fixture.operation).toBeDefined();
    expect(() => read(op!, fixture.body)).not.toThrow();
  });

  it('reads the portal preview into lines with their ids, and the A variant’s amounts written as text', () => {
    const byFile = (file: string) => fixtures.find((f) => f.file === file)!.body;
    const portal = read(g.claims.preview, byFile('claims.preview.portal-example.json'));
    const a = read(g.claims.preview, byFile('claims.preview.a-types.json'));
    for (const preview of [portal, a]) {
      expect(preview).toMatchObject({ totalAmount: 900, invoiceNumber: 'INV/10001/20001', lines: [{ id: '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b', amount: 900 }], diagnoses: [{ code: 'CA40.Z' }] });
    }
    expect(a.invoices[0]?.totalAmount).toBe(900);
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
          'POST /api/v1/claims/preview': () => ({
            status: 200,
            json: { authorization_code: 'CT', invoices: [{ invoice_number: 'I', lines: [{ id: 'L1', unit_price: 'free' }] }], claim_diagnoses: [], claim_attachments: [], total_claim_amount: 0 },
          }),
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
      await expect(client.claims.preview({ consent_token: 'CT' })).rejects.toMatchObject({ kind: 'malformed_response', field: 'invoices[0].lines[0].unit_price' });
    });

    it('treats a redirect as an unexpected answer', async () => {
      await expect(client.consent.contacts({ patient_id: 'CR1' })).rejects.toMatchObject({ kind: 'malformed_response', status: 302 });
    });
  });
});
