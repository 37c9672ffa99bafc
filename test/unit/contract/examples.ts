// One realistic answer for every command and one of every event, typed by the contract, so the
// compiler insists on a complete table and the tests can prove each survives its schema and JSON.
import type { CommandName, CommandOutput, StationEvent, StationStatus, VerificationStep, WorkflowView } from '../../../electron/contract';

const at = '2025-03-04T09:15:00+03:00';
const later = '2025-03-04T09:25:00+03:00';
const patient = { patientRef: 'pt_7Hq2mZ0a', maskedName: 'J*** W*** K***' };
const capitation = { code: 'SHA-03-001', name: 'Outpatient consultation (capitation)', scenario: 'capitation' as const };
const elective = { code: 'SHA-07-015', name: 'Elective hernia repair', scenario: 'elective-preauth' as const };
const doctor = { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };

const smsRoute = {
  route: 'sms' as const,
  reason: 'whitelisted' as const,
  fingerprintAllowed: true,
  smsAllowed: true,
  fallbackUntil: null,
  whitelistAdvised: false,
};

export const verifyingBySms: VerificationStep = {
  purpose: 'visit',
  route: smsRoute,
  stage: 'sms-sent',
  sms: {
    contacts: [
      { contactId: '41', masked: '+254714***898', main: true },
      { contactId: '42', masked: '+254722***101', main: false },
    ],
    selectedContactId: '41',
    sentTo: '+254714***898',
    sentAt: at,
    codeExpiresAt: '2025-03-04T09:20:00+03:00',
    resendAvailableAt: '2025-03-04T09:16:00+03:00',
    failedAttempts: 0,
    codeLength: 6,
    escapeOffered: false,
  },
  fingerprint: null,
  verifiedBy: null,
  whitelist: null,
};

const awaitingFingerprint: VerificationStep = {
  purpose: 'discharge',
  route: { ...smsRoute, route: 'fingerprint', reason: 'biometrics-enforced', smsAllowed: false },
  stage: 'awaiting-fingerprint',
  sms: null,
  fingerprint: {
    link: { handle: 'lk_c0ffee42', url: 'https://ekyc.example.com/verify/req-1234', expiresAt: later },
    checkedAt: at,
  },
  verifiedBy: null,
  whitelist: null,
};

const base = { deadlines: [], lastError: null, updatedAt: at };

export const consentView: WorkflowView & { kind: 'consent' } = {
  ...base,
  workflowId: 'wf_consent01',
  kind: 'consent',
  state: 'verifying',
  next: ['consent.confirmSms', 'consent.sendSms', 'consent.startFingerprint', 'consent.cancel'],
  deadlines: [
    { kind: 'sms-code-expiry', at: '2025-03-04T09:20:00+03:00' },
    { kind: 'sms-resend', at: '2025-03-04T09:16:00+03:00' },
  ],
  patient,
  intervention: capitation,
  serviceType: 'OUTPATIENT',
  verification: verifyingBySms,
  visitWorkflowId: null,
};

const line = {
  lineId: 'ln-1',
  interventionCode: 'SHA-03-001',
  itemCode: null,
  description: 'Consultation',
  unitPriceKes: 1500,
  quantity: 1,
  amountKes: 1500,
  diagnoses: [{ code: 'CA40.0', name: 'Pneumonia' }],
  serviceDate: '2025-03-04',
  automatic: false,
};

export const visitView: WorkflowView & { kind: 'visit' } = {
  ...base,
  workflowId: 'wf_visit0001',
  kind: 'visit',
  state: 'open',
  next: ['visit.addLine', 'visit.preview', 'discharge.begin'],
  patient,
  intervention: capitation,
  serviceType: 'OUTPATIENT',
  visitNumber: 'VST-2025-000123',
  invoiceNumber: 'INV-000123',
  claimStatus: 'DRAFT',
  startedAt: at,
  doctor,
  lines: [line],
  totalKes: 1500,
  closeBy: 'submit',
  fromWorkflowId: 'wf_consent01',
  dischargeWorkflowId: null,
};

export const dischargeView: WorkflowView & { kind: 'discharge' } = {
  ...base,
  workflowId: 'wf_dischg001',
  kind: 'discharge',
  state: 'verifying',
  next: ['consent.cancel'],
  deadlines: [{ kind: 'link-expiry', at: later }],
  visitWorkflowId: 'wf_visit0001',
  patient,
  intervention: capitation,
  serviceType: 'OUTPATIENT',
  closeBy: 'submit',
  verification: awaitingFingerprint,
  reasons: ['RECOVERED', 'REFERRED', 'ABSCONDED', 'OTHER'],
  invoiceNumber: 'INV-000123',
  partialDischarges: [],
  referredTo: null,
  claimStatus: 'DRAFT',
  closedAt: null,
};

export const electiveView: WorkflowView & { kind: 'elective' } = {
  ...base,
  workflowId: 'wf_elect0001',
  kind: 'elective',
  state: 'awaiting-payer',
  next: ['elective.refreshPreauth', 'elective.cancelPreauth'],
  phase: 'pre-visit',
  patient,
  intervention: elective,
  verification: null,
  preauth: {
    reference: 'PA-88412',
    status: 'ACTIVE',
    doctorStep: 'approved',
    payerStep: 'waiting',
    requestedAmountKes: 85000,
    diagnoses: [{ code: 'DD51' }],
    payerNote: null,
    createdAt: at,
    checkedAt: later,
  },
  preauthDocuments: { attached: [{ documentType: 'MEDICAL_REPORT', title: 'Surgeon’s report', fileName: 'report.pdf' }], gone: false },
  visitWorkflowId: null,
};

export const emergencyView: WorkflowView & { kind: 'emergency' } = {
  ...base,
  workflowId: 'wf_emerg0001',
  kind: 'emergency',
  state: 'open-unidentified',
  next: ['emergency.requestDoctorApproval', 'emergency.identify', 'emergency.submit'],
  deadlines: [{ kind: 'emergency-submit', at: '2025-03-05T09:15:00+03:00' }],
  intervention: { code: 'SHA-01-004', name: 'Emergency resuscitation', scenario: 'emergency' },
  protocol: { protocolCode: 'EP-004', name: 'Resuscitation protocol', interventionCode: 'SHA-01-004', tariffKes: 12000 },
  furtherProtocols: [],
  doctor: { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' },
  referenceNumber: 'AMB-2025-0042',
  protocolAdded: true,
  doctorApproval: 'requested',
  patient: null,
  verification: null,
  emergencyAt: at,
  submitBy: '2025-03-05T09:15:00+03:00',
  claimStatus: 'DRAFT',
  submittedAt: null,
};

const settings = {
  exchangeBaseUrl: 'http://127.0.0.1:4100',
  trainingMode: true,
  clientId: 'demo-hospital',
  credentialsStored: true,
  facilityCode: 'FID-00-000004-0',
  facilityName: 'Demo Hospital',
  agentNationalId: '21234567',
  allowedLinkOrigins: ['http://127.0.0.1:4100'],
  language: 'sw' as const,
  idleLockMinutes: 5,
  reader: { source: 'virtual' as const, readerId: null },
  defaultServiceType: 'OUTPATIENT' as const,
  stationRole: 'ward' as const,
  terminology: { medicines: { owner: 'MOH-PPB', source: 'HPT' }, diagnoses: null },
  scannerFolder: 'C:\\Users\\Public\\Scans',
  missing: [],
  provisioned: ['exchangeBaseUrl' as const],
};

const session = {
  signedIn: true,
  facilityCode: 'FID-00-000004-0',
  facilityName: 'Demo Hospital',
  trainingMode: true,
  exchangeOrigin: 'http://127.0.0.1:4100',
  signedInAt: at,
};

const summary = {
  ...patient,
  identity: { fullName: 'Jane Wanjiru Kamau', sex: 'female' as const, dateOfBirth: '1983-02-11', idNumberEnd: '0001' },
  idType: 'National ID' as const,
  maskedIdNumber: '3000***1',
  ageYears: 42,
  covered: true,
  message: null,
  reason: null,
  possibleSolution: null,
  schemes: [
    {
      schemeId: 'SHIF',
      name: 'Social Health Insurance Fund',
      memberType: 'PRINCIPAL',
      covered: true,
      coverageStart: '2024-10-01',
      coverageEnd: '2025-09-30',
      reason: null,
      possibleSolution: null,
    },
  ],
  chosenSchemeId: 'SHIF',
  schemeChoiceNeeded: false,
  memberType: 'PRINCIPAL',
  coverageStart: '2024-10-01',
  coverageEnd: '2025-09-30',
  badges: { smsCodeAllowed: false, fingerprintRequired: true },
  hasPhone: true,
  suggestedIntervention: capitation,
  detailsLoading: false,
  lookedUpAt: at,
};

const readers = {
  reader: {
    state: 'idle' as const,
    readerId: 'virtual',
    label: 'Virtual reader (training)',
    connection: 'virtual' as const,
    protocol: null,
    virtual: true,
    message: null,
  },
  hardwareService: { state: 'not-running' as const, scanners: [], workstationId: null, version: null, checkedAt: at },
  localDeviceService: { state: 'running' as const, url: 'http://127.0.0.1:18066', message: null },
  capture: null,
};

export const status: StationStatus = {
  contractVersion: 1,
  host: 'browser',
  appVersion: '0.1.0',
  trainingMode: true,
  signedIn: true,
  facility: { code: 'FID-00-000004-0', name: 'Demo Hospital' },
  exchange: { state: 'reachable', checkedAt: at, latencyMs: 42 },
  unavailablePieces: [{ piece: 'node-hid', reason: 'libusb-1.0 could not be loaded' }],
  locked: false,
  staff: { staffRef: 'st_nurse0001', name: 'Training nurse', role: 'nurse' },
  administratorExists: true,
  lockAt: later,
  now: at,
  setAside: { count: 1, records: [{ source: 'workflow', key: 'wf_consent0001', kind: 'consent', reason: 'newer', foundAt: at }] },
};

const auditRecord = {
  seq: 7,
  at,
  action: 'consent.sms-sent',
  workflowId: 'wf_consent01',
  workflowKind: 'consent' as const,
  outcome: 'succeeded' as const,
  errorCode: null,
  summary: 'SMS code sent to the main contact',
  actor: 'Training nurse',
  previousHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
};

const onePage = <T>(items: T[]) => ({ items, page: 1, pageSize: 50, total: items.length, totalPages: 1 });

const staffMember = { staffRef: 'st_nurse0001', name: 'Wanjiru Otieno', role: 'nurse' as const, nationalIdKnown: true, source: 'station' as const };

const claimSummaryExample = {
  workflowId: visitView.workflowId,
  kind: 'visit' as const,
  patient: visitView.patient,
  intervention: visitView.intervention,
  invoiceNumber: 'INV-000004-000001',
  visitNumber: 'VN-000004-000001',
  status: 'DRAFT_RESUBMIT_DOCUMENTS' as const,
  attention: 'documents' as const,
  totalKes: 850,
  checkedAt: at,
  nextCheckAt: later,
  resubmitBy: { returnSeenAt: at, deadline: later, closeToDeadline: false },
};

const claimDetailExample = {
  ...claimSummaryExample,
  documents: [],
  documentTypes: { applicable: ['INVOICE' as const], missing: ['INVOICE' as const] },
  resubmit: 'send-back' as const,
  next: ['claims.get' as const, 'claims.attach' as const, 'claims.resubmit' as const],
  lastError: null,
};

const professional = {
  doctor: { identificationType: 'Registration Number', identificationNumber: 'A12345', regulationBody: 'KMPDC' },
  name: 'Dr. Achieng Odhiambo',
  cadre: 'Medical Officer',
  specialty: 'General practice',
  licence: 'active' as const,
  licenceEnds: '2027-12-31',
};

const prescription = {
  prescriptionRef: 'rx_prescription01',
  workflowId: 'wf_visit000001',
  patientRef: 'pt_wanjiku01',
  maskedName: 'W*** M*** K***',
  interventionCode: 'SHA-03-001',
  writtenAt: at,
  prescriber: professional.doctor,
  items: [
    {
      conceptCode: 'AMOX-500',
      conceptName: 'Amoxicillin 500 mg',
      doseQuantity: 1,
      doseUnit: 'capsule',
      timesPerPeriod: 3,
      period: 'day' as const,
      duration: 5,
      durationUnit: 'day' as const,
      refills: 1,
      patientInstruction: 'After meals',
      additionalInstruction: null,
    },
  ],
  state: 'written' as const,
  exchangeCode: 'RX-12345-000001',
  status: 'ACTIVE',
  reviewStatus: 'PENDING',
  statusAt: at,
  fillsAllowed: 2,
  fillsCompleted: 0,
  fillInProgress: false,
  dispenses: [],
  dispensable: true,
};

export const outputExamples: { [N in CommandName]: CommandOutput<N> } = {
  'staff.list': { items: [staffMember] },
  'staff.add': staffMember,
  'staff.remove': { items: [] },
  'settings.get': settings,
  'settings.update': { ...settings, language: 'en' },
  'facility.signIn': session,
  'facility.signOut': { ...session, signedIn: false, signedInAt: null },
  'patient.lookUp': summary,
  'patient.details': summary,
  'patient.chooseScheme': summary,
  'patient.recent': {
    items: [{ ...patient, idType: 'National ID', maskedIdNumber: '3000***1', covered: true, lookedUpAt: at }],
  },
  'benefits.subBenefits': onePage([{ code: 'SB-OP-01', name: 'Outpatient services', careSetting: 'outpatient', fund: 'PHC', interventionCount: 12 }]),
  'benefits.interventions': onePage([
    {
      code: 'SHA-03-001',
      name: 'Outpatient consultation (capitation)',
      subBenefitCode: 'SB-OP-01',
      fund: 'PHC',
      careSetting: 'outpatient',
      paymentMechanism: 'CAPITATION',
      scenario: 'capitation',
      handling: { startsWith: 'visit', serviceType: 'OUTPATIENT', needsPreauth: false, needsDoctor: false, billing: 'manual', closeBy: 'submit' },
      tariffKes: null,
      protocolCode: null,
      requiredDocuments: [],
      preauthDocuments: [],
    },
  ]),
  'benefits.utilization': {
    interventionCode: 'SHA-03-001',
    available: true,
    individual: { limitKes: 50000, usedKes: 1500, remainingKes: 48500 },
    household: null,
    limitScope: 'INDIVIDUAL',
    nextAvailableAt: null,
    utilizationDays: null,
  },
  'consent.begin': consentView,
  'consent.sendSms': consentView,
  'consent.confirmSms': { ...consentView, state: 'verified', next: ['visit.open'], verification: { ...verifyingBySms, stage: 'verified', verifiedBy: 'sms' } },
  'consent.startFingerprint': dischargeView,
  'consent.cancel': { ...dischargeView, verification: { ...awaitingFingerprint, stage: 'cancelled' }, next: ['consent.retry'] },
  'consent.retry': dischargeView,
  'consent.checkFingerprint': dischargeView,
  'consent.requestWhitelist': {
    ...consentView,
    verification: {
      ...verifyingBySms,
      route: { ...smsRoute, route: 'blocked', reason: 'no-phone-no-fingerprints', fingerprintAllowed: false, smsAllowed: false, whitelistAdvised: true },
      stage: 'blocked',
      whitelist: { status: 'pending', reasonType: 'AMPUTEE', requestedAt: at },
    },
  },
  'authorizationView.setArea': { shownBy: 'renderer' },
  'visit.open': visitView,
  'visit.addLine': visitView,
  'visit.removeLine': { ...visitView, lines: [], totalKes: 0 },
  'visit.attachDoctor': visitView,
  'visit.close': { ...visitView, state: 'closed', claimStatus: 'CLOSED', next: [] },
  'visit.addDiagnosis': visitView,
  'visit.removeDiagnosis': visitView,
  'visit.editLine': visitView,
  'visit.switchIntervention': visitView,
  'visit.preview': {
    visitNumber: 'VST-2025-000123',
    invoiceNumber: 'INV-000123',
    claimStatus: 'DRAFT',
    serviceType: 'OUTPATIENT',
    interventions: [capitation],
    lines: [line],
    diagnoses: [{ code: 'CA40.0' }],
    doctor,
    attachmentCount: 0,
    totalKes: 1500,
    dischargeStatus: null,
    partialDischarges: [],
    submittedAt: null,
    previewedAt: at,
  },
  'discharge.begin': dischargeView,
  'discharge.dischargeInpatient': { ...dischargeView, state: 'partially-discharged', closeBy: 'discharge', partialDischarges: [later] },
  'discharge.submit': { ...dischargeView, state: 'submitted', next: [], claimStatus: 'SUBMITTED', closedAt: later },
  'elective.begin': { ...electiveView, state: 'verifying', preauth: null, verification: { ...verifyingBySms, purpose: 'pre-visit' } },
  'elective.submitPreauth': electiveView,
  'elective.resendDoctorRequest': electiveView,
  'elective.refreshPreauth': electiveView,
  'elective.cancelPreauth': { ...electiveView, state: 'cancelled', next: [] },
  'emergency.protocols': onePage([{ protocolCode: 'EP-004', name: 'Resuscitation protocol', interventionCode: 'SHA-01-004', tariffKes: 12000 }]),
  'emergency.create': emergencyView,
  'emergency.resendClaim': emergencyView,
  'emergency.addProtocol': { ...emergencyView, protocolAdded: true },
  'emergency.addAnotherProtocol': { ...emergencyView, furtherProtocols: [{ protocolCode: 'EP-005', name: 'Airway protocol', interventionCode: 'SHA-01-004', tariffKes: 8000 }] },
  'emergency.changeDoctor': emergencyView,
  'elective.removeDiagnosis': electiveView,
  'elective.changeDoctor': electiveView,
  'emergency.requestDoctorApproval': emergencyView,
  'emergency.identify': { ...emergencyView, state: 'identifying', patient },
  'emergency.submit': { ...emergencyView, state: 'submitted', next: [], claimStatus: 'SUBMITTED', submittedAt: later },
  'readers.state': readers,
  'readers.list': {
    items: [
      { readerId: 'virtual', label: 'Virtual reader (training)', connection: 'virtual', protocol: null, path: null },
      { readerId: 'serial:COM3', label: 'R307 on COM3', connection: 'serial', protocol: 'zfm', path: 'COM3' },
    ],
  },
  'readers.cancelCapture': readers,
  'audit.read': onePage([{ ...auditRecord, maskedPatient: patient.maskedName }]),
  'audit.export': {
    fileName: 'idhini-audit-2025-03-04.jsonl',
    mediaType: 'application/x-ndjson',
    recordCount: 1,
    content: `${JSON.stringify(auditRecord)}\n`,
  },
  'audit.verify': { intact: true, recordCount: 7, firstBrokenSeq: null, checkedAt: at },
  'station.status': status,
  'station.lock': { ...status, locked: true, lockAt: null },
  'station.unlock': status,
  'station.reportActivity': status,
  'workflow.get': electiveView,
  'workflow.list': { items: [consentView, visitView, dischargeView, electiveView, emergencyView] },
  'work.queue': {
    items: [
      { view: electiveView, since: at, answer: { by: 'doctor', about: 'preauth', outcome: 'approved', at } },
      { view: consentView, since: later, answer: null },
    ],
  },
  'facilities.search': {
    items: [{ code: 'FID-00-000005-0', name: 'Mlima County Referral Hospital', level: 'LEVEL 5', operationalStatus: 'ACTIVE', operational: 'yes', contractStatus: null }],
  },
  'beds.occupancy': { facilityName: 'Idhini Demo Hospital', level: 'LEVEL 4', rows: [{ bedType: 'normal', beds: 104, inUse: 68 }], totalBeds: 104, totalInUse: 68, readAt: at },
  'pomsf.balance': {
    policyYear: '2025',
    policies: [{ name: 'POMSF cover', schemeName: 'POMSF', status: 'ACTIVE', benefits: [{ code: 'OP', name: 'Outpatient', type: 'OUTPATIENT', familyShared: true, limitKes: 100000, balanceKes: 71250 }] }],
  },
  'pomsf.tariffs': { items: [{ interventionCode: 'SHA-04-001', name: 'General ward inpatient day', tariffKes: 4800 }] },
  'shr.record': {
    patient,
    observations: [{ id: 'obs-1', name: 'Heart rate', value: '76 /min', effectiveAt: at, status: 'final' }],
    moreObservations: false,
    serviceRequests: [{ id: 'sr-1', status: 'active', requestedAt: at, performer: 'Mlima County Referral Hospital' }],
    withheld: 1,
    readAt: at,
  },
  'claims.list': { items: [claimSummaryExample], needsNurse: 1, closeToDeadline: 0 },
  'claims.get': claimDetailExample,
  'claims.attach': { ...claimDetailExample, documents: [{ attachmentId: 'AT-1', documentType: 'INVOICE', title: 'invoice.pdf', interventionCode: 'SHA-02-001' }], documentTypes: { applicable: ['INVOICE'], missing: [] } },
  'claims.removeAttachment': claimDetailExample,
  'claims.resubmit': { ...claimDetailExample, status: 'SUBMITTED', attention: 'none', resubmit: null, next: ['claims.get'] },
  'terminology.searchDiagnoses': {
    items: [
      { code: '1F40.Z', title: 'Malaria due to Plasmodium falciparum, unspecified', recent: true },
      { code: '1A00', title: null, recent: false },
    ],
    searched: true,
  },
  'terminology.searchMedicines': {
    configured: true,
    items: [
      { code: 'GE10002', title: 'Metformin 500 mg oral tablet', recent: true },
      { code: 'GE20110', title: null, recent: false },
    ],
    searched: true,
  },
  'professionals.find': { professional: professional },
  'professionals.searchByName': { items: [professional] },
  'prescription.write': prescription,
  'prescription.list': { items: [prescription] },
  'prescription.check': { items: [{ ...prescription, reviewStatus: 'APPROVED', statusAt: later }], checkedAt: later, answer: 'matched', shownRef: 'rx_prescription01' },
  'pharmacy.openVisits': {
    visits: [
      { interventions: [{ code: 'SHA-02-001', name: 'General outpatient consultation' }], workflowId: null, openedHere: false, prescription: null, dispenses: [] },
      {
        interventions: [{ code: 'SHA-12-001', name: null }],
        workflowId: 'wf_visit000001',
        openedHere: false,
        prescription: { exchangeCode: 'RX-2026-000117', status: 'ACTIVE', reviewStatus: 'PENDING', medicines: ['AMOX-500'] },
        dispenses: [],
      },
    ],
    checkedAt: later,
  },
  'pharmacy.dispense': { dispenses: [{ dispenseRef: 'dx_dispense02', at: later, products: [{ productCode: 'AMOX-500-CAP', priceKes: 12.5, quantity: 15 }], completesFill: true, state: 'dispensed', status: 'DISPENSED' }] },
  'prescription.dispense': {
    ...prescription,
    fillsCompleted: 0,
    fillInProgress: true,
    dispenses: [{ dispenseRef: 'dx_dispense01', at: later, products: [{ productCode: 'AMOX-500-CAP', priceKes: 12.5, quantity: 10 }], completesFill: false, state: 'dispensed', status: 'DISPENSED' }],
  },
  'scanner.list': { folder: 'ready', files: [{ name: 'scan-0001.pdf', contentType: 'application/pdf', size: 48_213, modifiedAt: at }], listedAt: later },
  'scanner.read': { name: 'scan-0001.pdf', size: 12, dataBase64: 'JVBERi0xLjQKJSVFT0Y=' },
};

export const eventExamples: StationEvent[] = [
  { type: 'workflow.updated', view: emergencyView },
  { type: 'readers.changed', readers: { ...readers, reader: { ...readers.reader, state: 'waiting-for-finger' } } },
  { type: 'capture.requested', capture: { origin: 'https://ekyc.example.com', requestedAt: at } },
  { type: 'station.statusChanged', status },
  { type: 'station.locked', reason: 'idle', at },
  { type: 'station.unlocked', at: later },
];
