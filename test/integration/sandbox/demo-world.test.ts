/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// The demo world of ../shared/design/contracts.md, row by row, and the registry and benefit
// look-ups answered from it.
import { describe, expect, it } from 'vitest';
import { claimDocumentTypes } from '../../../electron/vocabulary';
import { DISPENSARY, HOSPITAL, NID, crId, expectError, findInterventions, openVisit, useHarness } from './harness';

const h = useHarness();

const eligibility = (nationalId: string, client = h.hospital) =>
  client.get('/api/v1/patients/eligibility', { identification_number: nationalId, identification_type: 'National ID' });

describe('the demo world', () => {
  it('30000001: covered by SHIF, fingerprints enrolled, not whitelisted, one phone contact', async () => {
    const e = await eligibility(NID.covered);
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ statusCode: '10', whitelistedForOTP: false, facilityBiometricsEnforced: true });
    expect(e.body.schemes).toHaveLength(1);
    // Numbers where the docs say integer, coverage status a string (A's types, R's fixture).
    expect(e.body).toMatchObject({ requestIdType: 2, requestIdNumber: NID.covered });
    expect(e.body.schemes[0]).toMatchObject({ schemeId: expect.any(Number), memberType: 'PRIMARY', coverage: { status: '1' } });
    expect(e.body.schemes[0].principalContributor).toMatchObject({ crNumber: e.body.memberCrNumber, idType: 'NATIONAL_ID' });
    const id = e.body.memberCrNumber as string;
    expect((await h.control.get(`/sandbox/patients/${id}/fingerprints`)).body.length).toBeGreaterThan(0);
    const contacts = await h.hospital.get('/api/v1/patients/contacts', { patient_id: id });
    expect(contacts.body.count).toBe(1);
    expect(contacts.body.results[0]).toMatchObject({ contactType: 'PHO', isMainContact: true, active: true, isConfirmed: true });
    expect(contacts.body.results[0].contactValue).toMatch(/^\+254\d{3}\*\*\*\d{3}$/);
  });

  it('30000002: covered, whitelisted for OTP, two phone contacts, fingerprints enrolled', async () => {
    const e = await eligibility(NID.whitelisted);
    expect(e.body).toMatchObject({ statusCode: '10', whitelistedForOTP: true });
    expect(e.body.schemes[0].coverage.status).toBe('1');
    const id = e.body.memberCrNumber as string;
    expect((await h.hospital.get('/api/v1/patients/contacts', { patient_id: id })).body.count).toBe(2);
    expect((await h.control.get(`/sandbox/patients/${id}/fingerprints`)).body.length).toBeGreaterThan(0);
  });

  it('30000003: found, not covered, with reason and possibleSolution', async () => {
    const e = await eligibility(NID.notCovered);
    expect(e.body.statusCode).toBe('10');
    const coverage = e.body.schemes[0].coverage;
    expect(coverage.status).toBe('0');
    expect(coverage.reason).not.toBe('');
    expect(coverage.possibleSolution).not.toBe('');
    const id = e.body.memberCrNumber as string;
    expect((await h.hospital.get('/api/v1/patients/sub-benefits', { patient_id: id })).body.count).toBe(0);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-02-001'] }), 422, 'NOT_COVERED');
  });

  it('30000004: a covered adult whose fingerprints are unusable', async () => {
    const e = await eligibility(NID.unusableFingers);
    expect(e.body.schemes[0].coverage.status).toBe('1');
    expect(e.body.age).toBeGreaterThanOrEqual(18);
    expect((await h.control.get(`/sandbox/patients/${e.body.memberCrNumber}/fingerprints`)).body).toEqual([]);
  });

  it('30000005: covered under two schemes', async () => {
    const e = await eligibility(NID.twoSchemes);
    const covered = (e.body.schemes as any[]).filter((s) => s.coverage.status === '1');
    expect(covered).toHaveLength(2);
    expect(new Set(covered.map((s) => s.policy.number)).size).toBe(2);
  });

  it('30000006: covered, no phone contact', async () => {
    const e = await eligibility(NID.noPhone);
    expect(e.body.schemes[0].coverage.status).toBe('1');
    const contacts = await h.hospital.get('/api/v1/patients/contacts', { patient_id: e.body.memberCrNumber });
    expect(contacts.body).toEqual({ count: 0, results: [] });
  });

  it('99999999: not found (404 on the registry, statusCode "00" on eligibility)', async () => {
    expectError(await h.hospital.get('/api/v1/patients', { identification_number: NID.notFound, identification_type: 'National ID' }), 404, 'NOT_FOUND');
    const e = await eligibility(NID.notFound);
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ statusCode: '00', schemes: [], requestIdNumber: NID.notFound, requestIdType: 2 });
    // Fields the registry does not know are left out, not sent as null.
    expect(e.body).not.toHaveProperty('memberCrNumber');
    expect(e.body).not.toHaveProperty('fullName');
  });

  it('finds a patient by ClientRegistry ID too', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await h.hospital.get('/api/v1/patients', { identification_number: id, identification_type: 'ClientRegistry ID' });
    // The flat snake_case member record (V registries docs; R PatientRecordWire).
    expect(r.body).toMatchObject({ id, identification_type: 'National ID', identification_number: NID.covered, first_name: 'Wanjiku', last_name: 'Kamau', gender: 'Female' });
    expect((await eligibility(id, h.hospital)).body).toMatchObject({ statusCode: '00' });
    const byCr = await h.hospital.get('/api/v1/patients/eligibility', { identification_number: id, identification_type: 'ClientRegistry ID' });
    expect(byCr.body).toMatchObject({ statusCode: '10', requestIdType: 3 });
  });

  it('tells each facility whether it enforces biometrics', async () => {
    expect((await eligibility(NID.covered, h.hospital)).body.facilityBiometricsEnforced).toBe(true);
    expect((await eligibility(NID.covered, h.dispensary)).body.facilityBiometricsEnforced).toBe(false);
  });
});

describe('benefits', () => {
  it('gives a covered member ~30 sub-benefits in one answer, as UAT served them (R fixture; A reads only the first answer)', async () => {
    const id = await crId(h.hospital, NID.covered);
    const whole = await h.hospital.get('/api/v1/patients/sub-benefits', { patient_id: id });
    expect(whole.body).toMatchObject({ count: 30, currentPage: 1, pageSize: 30, totalPages: 1, startIndex: 1, endIndex: 30, previous: null, next: null });
    expect(whole.body.results).toHaveLength(30);
  });

  it('pages the sub-benefits when a page size is asked for', async () => {
    const id = await crId(h.hospital, NID.covered);
    const first = await h.hospital.get('/api/v1/patients/sub-benefits', { patient_id: id, pageSize: '20' });
    expect(first.body).toMatchObject({ count: 30, currentPage: 1, pageSize: 20, totalPages: 2, startIndex: 1, endIndex: 20, previous: null });
    expect(first.body.results).toHaveLength(20);
    const second = await h.hospital.get(new URL(first.body.next).pathname + new URL(first.body.next).search);
    expect(second.body).toMatchObject({ currentPage: 2, startIndex: 21, endIndex: 30, next: null });
    const s = second.body.results[0];
    expect(Object.keys(s)).toEqual(expect.arrayContaining(['code', 'name', 'accessPoint', 'fund', 'parentBenefitCode', 'cover', 'allowedInterventions']));
    // The cover carries the documented fields only: the member's policy (the portal docs' example).
    expect(Object.keys(s.cover).sort()).toEqual(['effectivePolicyNumber', 'policyNumber', 'validFrom', 'validTo']);
  });

  it('lists only the portal’s document types as a service’s papers, the ones a station can attach (an elective asks for the medical report and the consultant’s request form)', async () => {
    const found = await findInterventions(h.hospital, await crId(h.hospital, NID.covered));
    const listed = new Set(found.all.flatMap((i) => [...i.applicableDocumentTypes, ...i.requiredPreauthDocumentTypes]));
    expect([...listed].filter((type) => !(claimDocumentTypes as readonly string[]).includes(type))).toEqual([]);
    expect(found.all.find((i) => i.code === 'SHA-08-001')?.requiredPreauthDocumentTypes).toEqual(['MEDICAL_REPORT', 'REQUEST_FORM_BY_RELEVANT_CONSULTANT']);
  });

  it('gives ~850 interventions with SHA-XX-NNN codes, every live paymentMechanism spelling, and the four required kinds', async () => {
    const id = await crId(h.hospital, NID.covered);
    const found = await findInterventions(h.hospital, id);
    expect(found.all.length).toBeGreaterThanOrEqual(800);
    expect(found.all.length).toBeLessThanOrEqual(900);
    for (const i of found.all) expect(i.code).toMatch(/^SHA-\d{2}-\d{3}$/);
    const mechanisms = new Set(found.all.map((i) => i.paymentMechanism));
    expect([...mechanisms].sort()).toEqual(['CAPITATION', 'CASE BASED', 'FEE FOR SERVICE', 'FEE_FOR_SERVICE', 'PER_DIEM']);
    expect(new Set([found.capitation, found.elective, found.perDiem, found.emergency]).size).toBe(4);
    // The portal's names (code, overallTariff, …), with the contract's intervention_code beside code.
    const fields = Object.keys(found.all[0]);
    expect(fields).toEqual(
      expect.arrayContaining([
        'code',
        'intervention_code',
        'name',
        'paymentMechanism',
        'needsPreauth',
        'needsManualPreauthApproval',
        'accessPoint',
        'applicableDocumentTypes',
        'requiredPreauthDocumentTypes',
        'needsDoctorAuthorization',
        'kephLevelTarriff',
        'overallTariff',
        'fund',
      ]),
    );
    expect(fields).not.toContain('sub_benefit_code');
    const emergency = found.all.find((i) => i.code === found.emergency);
    expect(emergency).toMatchObject({ protocolCode: expect.any(String), applicableTariff: expect.any(Number) });
  });

  it('lists interventions one sub-benefit at a time (sub_benefit_code required, or one code), whole unless paged, bounding pageSize to 1..100', async () => {
    const id = await crId(h.hospital, NID.covered);
    const get = (query: Record<string, string>) => h.hospital.get('/api/v1/patients/benefits/interventions', { patient_id: id, ...query });
    const none = await get({});
    expectError(none, 400, 'VALIDATION_ERROR');
    expect(none.body.details).toEqual([{ field: 'sub_benefit_code', message: expect.stringContaining('required') }]);
    const whole = await get({ sub_benefit_code: 'SB-02-01' });
    expect(whole.body.count).toBeGreaterThan(5);
    expect(whole.body).toMatchObject({ currentPage: 1, totalPages: 1, pageSize: whole.body.count, next: null });
    expect(whole.body.results).toHaveLength(whole.body.count);
    const paged = await get({ sub_benefit_code: 'SB-02-01', pageSize: '5', page: '2' });
    expect(paged.body).toMatchObject({ currentPage: 2, pageSize: 5, startIndex: 6, endIndex: 10 });
    expect((paged.body.results as any[]).map((i) => i.code)).toEqual((whole.body.results as any[]).slice(5, 10).map((i) => i.code));
    // A's single-intervention look-up by code; an unknown sub-benefit lists nothing, as UAT does.
    expect((await get({ code: 'SHA-02-001' })).body.results.map((i: { code: string }) => i.code)).toEqual(['SHA-02-001']);
    expect((await get({ sub_benefit_code: 'POLICY-123' })).body).toMatchObject({ count: 0, results: [] });
    for (const pageSize of ['0', '101', 'x']) expectError(await get({ sub_benefit_code: 'SB-02-01', pageSize }), 400, 'VALIDATION_ERROR');
    expectError(await get({ sub_benefit_code: 'SB-02-01', page: '0' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.get('/api/v1/patients/benefits/interventions', { patient_id: 'CR0', sub_benefit_code: 'SB-02-01' }), 404, 'NOT_FOUND');
  });

  it('answers utilization as UAT did: a bare list, one record per limit scope, with its computational detail', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await h.hospital.get('/api/v1/patients/benefits/utilization', { patient_id: id, intervention_code: 'SHA-02-001' });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(Object.keys(r.body[0])).toEqual(
      expect.arrayContaining(['code', 'crId', 'householdMaxLimit', 'householdUtilisedLimit', 'individualMaxLimit', 'individualUtilisedLimit', 'limitScope', 'nextAvailability', 'utilizationDays']),
    );
    expect(r.body[0].computationalDetail).toMatchObject({ eligibility: true });
    expect(r.body[0].fundUtilizationLimit[0]).toEqual(expect.objectContaining({ fundType: expect.any(String), availableAmount: expect.any(Number) }));
  });

  it('takes the cover of a two-scheme member under a consent token, and the claim is not submitted without it', async () => {
    const id = await crId(h.hospital, NID.twoSchemes);
    const e = (await eligibility(NID.twoSchemes)).body;
    const [shif, pomsf] = e.schemes as any[];
    // Consent is not held up by the choice (it needs the consent token the visit gives).
    const found = await findInterventions(h.dispensary, id);
    const visit = await openVisit(h, h.dispensary, id, found.capitation, 'CAPITATION');
    const token = visit.authorization_code as string;
    // Our old reading, {patient_id, scheme_id}, is not the live call.
    expectError(await h.dispensary.post('/api/v1/authorizations/covers', { patient_id: id, scheme_id: 'SHIF' }), 400, 'VALIDATION_ERROR');
    expectError(await h.dispensary.post('/api/v1/authorizations/covers', { consent_token: 'nope', principal_cr_id: id, policy_number: shif.policy.number }), 404, 'NOT_FOUND');
    expectError(await h.dispensary.post('/api/v1/authorizations/covers', { consent_token: token, principal_cr_id: id, policy_number: 'POL-OTHER' }), 422, 'NOT_COVERED');
    expectError(await h.dispensary.post('/api/v1/authorizations/covers', { consent_token: token, principal_cr_id: 'CR-SOMEONE-ELSE', policy_number: pomsf.policy.number }), 422, 'NOT_COVERED');
    const submit = { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', otp: '000000' };
    expectError(await h.dispensary.post('/api/v1/claims/submit', submit), 422, 'COVER_NOT_SET');
    const set = await h.dispensary.post('/api/v1/authorizations/covers', { consent_token: token, principal_cr_id: pomsf.principalContributor.crNumber, policy_number: pomsf.policy.number });
    expect(set.status).toBe(200);
    expect(Object.keys(set.body)).toEqual(['message']);
    // Past the cover now: the visit-end consent is what is missing.
    const after = await h.dispensary.post('/api/v1/claims/submit', submit);
    expect(after.body.error).not.toBe('COVER_NOT_SET');
    expect(after.status).toBe(422);
  });

  it('answers the POMSF balance of a POMSF member only, nested as the portal docs show it', async () => {
    const id = await crId(h.hospital, NID.twoSchemes);
    const pomsf = await h.hospital.get('/api/v1/patients/pomsf-balances', { patient_id: id, policy_year: '2025' });
    expect(pomsf.status).toBe(200);
    expect(pomsf.body).toMatchObject({ memberNumber: id, relationshipType: 'SELF' });
    const [policy] = pomsf.body.memberPolicies as any[];
    expect(policy.policy).toMatchObject({ PolicyYear: '2025', schemeName: 'PUBLIC OFFICERS MEDICAL SCHEME FUND', status: 'ACTIVE' });
    for (const b of policy.benefit as any[]) {
      expect(b).toMatchObject({ benefitCode: expect.any(String), limit: expect.any(Number), benefitShared: 'FAMILY SHARED' });
      expect(b.balance[0]).toEqual({ member: id, balance: b.limit });
    }
    // The sandbox does not require policy_year (A sends it only when it has one); R sends the year it starts.
    expect((await h.hospital.get('/api/v1/patients/pomsf-balances', { patient_id: id })).status).toBe(200);
    expectError(await h.hospital.get('/api/v1/patients/pomsf-balances', { patient_id: id, policy_year: '2025/2026' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.get('/api/v1/patients/pomsf-balances', { patient_id: id, principal_member_number: 'CR-NOBODY' }), 404, 'NOT_FOUND');
    expectError(await h.hospital.get('/api/v1/patients/pomsf-balances', { patient_id: await crId(h.hospital, NID.covered) }), 404, 'NOT_FOUND');
  });
});

describe('registry look-ups', () => {
  it('searches facilities as the registry answers: one object by identifier, a bare array by name', async () => {
    const byCode = await h.hospital.get('/api/v1/facilities/search', { identifier: DISPENSARY.code, 'identifier-type': 'fr-code' });
    expect(byCode.body).toMatchObject({ frCode: DISPENSARY.code, officialName: 'Idhini Demo Dispensary', kephLevel: 'LEVEL 2', SHAOperationStatus: { operationalStatus: 'ACTIVE' } });
    const byMfl = await h.hospital.get('/api/v1/facilities/search', { identifier: '90004', 'identifier-type': 'mfl' });
    expect(byMfl.body.frCode).toBe(HOSPITAL.code);
    const byName = await h.hospital.get('/api/v1/facilities/search', { name: 'demo' });
    expect((byName.body as any[]).map((f) => f.frCode).sort()).toEqual([DISPENSARY.code, HOSPITAL.code].sort());
    expect((await h.hospital.get('/api/v1/facilities/search', { name: 'nowhere' })).body).toEqual([]);
    // Ours: one demo facility is suspended, with SHA's reason, so a referral meets one that is not operational.
    const suspended = await h.hospital.get('/api/v1/facilities/search', { identifier: 'FID-00-000003-0', 'identifier-type': 'fr-code' });
    expect(suspended.body.SHAOperationStatus).toMatchObject({ operationalStatus: 'SUSPENDED', suspensionReason: 'Pending inspection of the maternity theatre' });
    expectError(await h.hospital.get('/api/v1/facilities/search', {}), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.get('/api/v1/facilities/search', { identifier: HOSPITAL.code, 'identifier-type': 'fr_code' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.get('/api/v1/facilities/search', { identifier: 'FID-99-999999-9' }), 404, 'NOT_FOUND');
  });

  it('finds KMPDC, COC and NCK professionals as {message: {membership, licenses, …}}, with the regulator in upper case', async () => {
    for (const [id, regulator] of [
      ['A12345', 'KMPDC'],
      ['RCO-04512', 'COC'],
      ['NCK-118822', 'NCK'],
    ] as const) {
      const r = await h.hospital.get('/api/v1/professionals', { identification_number: id, identification_type: 'registration_number', regulator });
      expect(r.status).toBe(200);
      expect(r.body.message.membership).toMatchObject({ registration_id: id, licensing_body: regulator, is_active: 1 });
      expect(r.body.message.licenses[0]).toMatchObject({ license_end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    }
    expectError(await h.hospital.get('/api/v1/professionals', { identification_number: 'A12345', regulator: 'kmpdc' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.get('/api/v1/professionals', { identification_number: 'Z0', regulator: 'KMPDC' }), 422, 'PROFESSIONAL_NOT_FOUND');
  });

  it('answers terminology, bed occupancy counts and tariffs', async () => {
    const concepts = await h.hospital.get('/api/v1/clinical/concepts', { search: 'malaria', limit: '5' });
    expect(concepts.body.results[0]).toMatchObject({ code: '1F40.Z' });
    // Each list under its owner and source: neither given searches both, one given narrows to its list.
    const everything = await h.hospital.get('/api/v1/clinical/concepts', { search: 'GE10', limit: '100' });
    expect(everything.body.count).toBeGreaterThan(0);
    const medicines = await h.hospital.get('/api/v1/clinical/concepts', { owner: 'MOH-PPB', source: 'HPT', search: 'amoxicillin' });
    expect(medicines.body.results.map((c: { code: string }) => c.code)).toEqual(['GE10110', 'GE10111']);
    expect(medicines.body.results[0]).toMatchObject({ owner: 'MOH-PPB', source: 'HPT' });
    const noDiagnosisAmongMedicines = await h.hospital.get('/api/v1/clinical/concepts', { owner: 'MOH-PPB', source: 'HPT', search: 'malaria' });
    expect(noDiagnosisAmongMedicines.body).toEqual({ count: 0, results: [] });
    const icd = await h.hospital.get('/api/v1/clinical/concepts', { owner: 'who', source: 'icd-11', search: 'a' });
    expect(icd.body.results.every((c: { owner: string }) => c.owner === 'WHO')).toBe(true);
    expect((await h.hospital.get('/api/v1/clinical/concepts', { owner: 'WHO', source: 'HPT', search: 'a' })).body.count).toBe(0);
    const beds = await h.hospital.get(`/api/v1/facilities/${HOSPITAL.code}/beds/occupancy`);
    expect(beds.body).toMatchObject({ name: 'Idhini Demo Hospital', bp_level: 'LEVEL 4' });
    expect(beds.body.bed_occupancy_rate).toMatchObject({ number_of_icu_bed: 6, icu_visits: 4 });
    expect(beds.body.bed_occupancy_rate.total_number_of_bed).toBe(beds.body.bed_occupancy_rate.number_of_normal_bed + 6);
    expect(await h.hospital.get(`/api/v1/facilities/${HOSPITAL.code}/beds/occupancy`, undefined, { token: null })).toMatchObject({ status: 403 });
    const tariffs = await h.hospital.post('/api/v1/benefits/pmf-tariffs/resolve', {
      fr_code: HOSPITAL.code,
      intervention_codes: ['SHA-02-001'],
      hcw_identifier_type: 'registration_number',
      hcw_identifier: 'A12345',
      hcw_regulator: 'KMPDC',
    });
    expect(tariffs.body.tariffs[0]).toMatchObject({ intervention_code: 'SHA-02-001', currency: 'KES' });
    // Only the field notes show this call: the sandbox does not require the health worker.
    expect((await h.hospital.post('/api/v1/benefits/pmf-tariffs/resolve', { fr_code: HOSPITAL.code, intervention_codes: ['SHA-02-001'] })).status).toBe(200);
    expectError(await h.hospital.post('/api/v1/benefits/pmf-tariffs/resolve', { fr_code: HOSPITAL.code, intervention_codes: ['SHA-02-001'], hcw_identifier: 'A12345' }), 400, 'VALIDATION_ERROR');
  });

  it('answers the shared health record: labels, referrals without consent, observations with X-Consent-Token and X-PUID', async () => {
    const labels = await h.hospital.get('/api/v1/shr/security-labels');
    expect(Array.isArray(labels.body)).toBe(true);
    expect((labels.body as any[]).map((l) => l.code)).toEqual(expect.arrayContaining(['N', 'R', 'HIV', 'PSY', 'SUD']));
    const requests = await h.hospital.get('/api/v1/shr/ServiceRequest', { 'performer:Organization': HOSPITAL.code });
    expect(requests.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect((await h.hospital.get('/api/v1/shr/ServiceRequest')).status).toBe(200);
    const id = await crId(h.hospital, NID.covered);
    const found = await findInterventions(h.hospital, id);
    const visit = await openVisit(h, h.hospital, id, found.capitation, 'CAPITATION');
    const consent = { 'x-consent-token': visit.authorization_code as string };
    expectError(await h.hospital.get('/api/v1/shr/Observation', { subject: id }), 400, 'VALIDATION_ERROR');
    const noPuid = await h.hospital.get('/api/v1/shr/Observation', { subject: id }, { headers: consent });
    expectError(noPuid, 400, 'VALIDATION_ERROR');
    expect(noPuid.body.details[0].field).toBe('X-PUID');
    const record = await h.hospital.get('/api/v1/shr/Observation', { subject: id }, { headers: { ...consent, 'x-puid': 'PUID-A12345' } });
    expect(record.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 7 });
    expect(record.body.entry[0].resource).toMatchObject({ resourceType: 'Observation', subject: { reference: `Patient/${id}` } });
  });
});
