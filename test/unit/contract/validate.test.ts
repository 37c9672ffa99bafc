// The inbound check both shells run on every IPC or WebSocket message, and the outbound checks on
// what the core answers and emits.
import { describe, expect, it } from 'vitest';
import { checkEvent, checkOutput, validateInvoke } from '../../../electron/contract';
import { eventExamples, outputExamples } from './examples';

const doctor = { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
const line = { workflowId: 'wf_visit0001', unitPriceKes: 1500, quantity: 1, diagnoses: [{ code: 'CA40.0' }] };

function refusal(name: unknown, input: unknown) {
  const outcome = validateInvoke(name, input);
  if (outcome.ok) throw new Error(`expected ${String(name)} to be refused`);
  return outcome.error;
}

describe('validateInvoke', () => {
  it.each([['patient.delete'], ['toString'], ['__proto__'], ['constructor'], [42], [undefined]])('refuses the unknown command %s', (name) => {
    const error = refusal(name, {});
    expect(error.code).toBe('UNKNOWN_COMMAND');
    expect(error.details?.field).toBe('name');
  });

  it('accepts a good call and hands the core its typed input', () => {
    const outcome = validateInvoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    expect(outcome).toEqual({ ok: true, value: { name: 'patient.lookUp', input: { idType: 'National ID', idNumber: '30000001' } } });
  });

  it('names the bad field, nested ones by their path', () => {
    expect(refusal('patient.lookUp', { idType: 'Passport', idNumber: '30000001' })).toMatchObject({
      code: 'VALIDATION',
      retryable: false,
      details: { field: 'idType' },
    });
    expect(refusal('patient.lookUp', { idType: 'National ID' }).details?.field).toBe('idNumber');
    expect(refusal('visit.addLine', { ...line, diagnoses: [{ code: '' }] }).details?.field).toBe('diagnoses.0.code');
    expect(refusal('consent.confirmSms', { workflowId: 'wf_consent01', code: '12ab' }).message).toMatch(/^consent\.confirmSms: code: /);
    expect(refusal('patient.lookUp', null).details?.field).toBe('(input)');
  });

  it('refuses keys that are not part of the contract, naming them', () => {
    const error = refusal('visit.open', { workflowId: 'wf_consent01', consentToken: 'x' });
    expect(error.details?.field).toBe('consentToken');
  });

  it('never echoes what was sent, so a mistyped secret does not travel back', () => {
    const error = refusal('consent.confirmSms', { workflowId: 'wf_consent01', code: '98765x' });
    expect(JSON.stringify(error)).not.toContain('98765x');
    const signIn = refusal('facility.signIn', { clientId: 'demo-hospital', clientSecret: 42, extra: 'hunter2' });
    expect(JSON.stringify(signIn)).not.toContain('hunter2');
  });

  it('refuses handles that are not station handles (a raw exchange guid, say)', () => {
    expect(refusal('workflow.get', { workflowId: '0b5f6f7e-2f1a-4a8e-9d55-7f3c1a2b4c5d' }).details?.field).toBe('workflowId');
  });

  it('refuses DECEASED as a submit reason, and allows it for an inpatient discharge', () => {
    expect(refusal('discharge.submit', { workflowId: 'wf_dischg001', reason: 'DECEASED' }).details?.field).toBe('reason');
    expect(refusal('emergency.submit', { workflowId: 'wf_emerg0001', reason: 'DECEASED' }).details?.field).toBe('reason');
    expect(validateInvoke('discharge.submit', { workflowId: 'wf_dischg001', reason: 'RECOVERED', invoiceNumber: 'INV-1' }).ok).toBe(true);
    expect(validateInvoke('discharge.dischargeInpatient', { workflowId: 'wf_dischg001', reason: 'DECEASED' }).ok).toBe(true);
    // an unidentified emergency patient may be recorded as deceased, but not as the discharge reason
    expect(validateInvoke('emergency.submit', { workflowId: 'wf_emerg0001', reason: 'OTHER', unknownPatientReason: 'DECEASED' }).ok).toBe(true);
  });

  it('takes the attending doctor with all three fields or none', () => {
    expect(validateInvoke('visit.addLine', line).ok).toBe(true);
    expect(validateInvoke('visit.addLine', { ...line, doctor }).ok).toBe(true);
    for (const missing of ['identificationType', 'identificationNumber', 'regulationBody'] as const) {
      const partial: Record<string, string> = { ...doctor };
      delete partial[missing];
      expect(refusal('visit.addLine', { ...line, doctor: partial }).details?.field).toBe(`doctor.${missing}`);
    }
    expect(refusal('visit.attachDoctor', { workflowId: 'wf_visit0001' }).details?.field).toBe('doctor');
  });

  it('refuses link origins that are not https, except on the loopback', () => {
    expect(validateInvoke('settings.update', { allowedLinkOrigins: ['https://ekyc.example.com', 'http://127.0.0.1:4100'] }).ok).toBe(true);
    for (const bad of [
      'http://ekyc.example.com',
      'https://ekyc.example.com/path',
      'javascript:alert(1)',
      'file:///etc',
      // Origins to the URL parser, but a wildcard or an extra directive in a Content-Security-Policy.
      'https://*',
      'https://*.example.com',
      'https://x;script-src',
      "https://x'y",
    ]) {
      expect(refusal('settings.update', { allowedLinkOrigins: [bad] }).details?.field).toBe('allowedLinkOrigins.0');
    }
  });
});

describe('checkOutput and checkEvent', () => {
  it('pass what the contract allows', () => {
    expect(checkOutput('visit.open', outputExamples['visit.open'])).toEqual({ ok: true, value: outputExamples['visit.open'] });
    for (const event of eventExamples) expect(checkEvent(event)).toEqual({ ok: true, value: event });
  });

  it('replace an answer that carries an extra key by an INTERNAL error that names the key, not its value', () => {
    const leaky = { ...outputExamples['visit.open'], consentToken: 'CT-secret-value' };
    const outcome = checkOutput('visit.open', leaky);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INTERNAL', details: { issues: [{ field: 'consentToken' }] } } });
    expect(JSON.stringify(outcome)).not.toContain('CT-secret-value');
    const event = checkEvent({ type: 'station.locked', reason: 'idle', at: '2025-03-04T09:15:00Z', accessToken: 'AT-value' });
    expect(event.ok).toBe(false);
    expect(JSON.stringify(event)).not.toContain('AT-value');
  });
});
