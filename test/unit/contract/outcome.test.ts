// checkOutcome: the check both shells (the Electron shell and the browser host) run on every whole
// answer of the core before it crosses to the renderer, success and error alike; and invokeChecked,
// which hands them each call and runs it.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { checkOutcome, invokeChecked, makeError } from '../../../electron/contract';
import type { CommandOutcome, HostedCore, Invocation } from '../../../electron/contract';
import { outputExamples } from './examples';

const outsideTheContract = { ok: false, error: makeError('INTERNAL', 'The station answered visit.open outside the contract.') };

describe('checkOutcome', () => {
  it('passes a value the contract allows, typed as the command’s outcome', () => {
    const outcome = checkOutcome('visit.open', { ok: true, value: outputExamples['visit.open'] });
    expect(outcome).toEqual({ ok: true, value: outputExamples['visit.open'] });
    expectTypeOf(outcome).toEqualTypeOf<CommandOutcome<'visit.open'>>();
  });

  it('checks a value by the command’s own output schema: an extra key is named, its value never shown', () => {
    const outcome = checkOutcome('visit.open', { ok: true, value: { ...outputExamples['visit.open'], consentToken: 'CT-secret-value' } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INTERNAL', details: { issues: [{ field: 'consentToken' }] } } });
    expect(JSON.stringify(outcome)).not.toContain('CT-secret-value');
    // Another command's answer is outside this one's contract.
    expect(checkOutcome('visit.open', { ok: true, value: outputExamples['settings.get'] })).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('passes an error envelope the contract allows, unchanged', () => {
    const error = makeError('OTP_INVALID', 'The SMS code is not right.', { attemptsLeft: 2, workflowId: 'wf_consent01' });
    expect(checkOutcome('consent.confirmSms', { ok: false, error })).toEqual({ ok: false, error });
  });

  it('replaces an error envelope outside the contract by INTERNAL, without echoing it', () => {
    const riding = { ...makeError('EXCHANGE_ERROR', 'The exchange refused.'), token: 'AT-secret-value' };
    const inDetails = makeError('EXCHANGE_ERROR', 'The exchange refused.', { reason: 'x' });
    const leakyDetails = { ...inDetails, details: { ...inDetails.details, consentToken: 'CT-secret-value' } };
    const unknownCode = { code: 'TEAPOT', message: 'no', retryable: false };
    for (const error of [riding, leakyDetails, unknownCode, null, 'EXCHANGE_ERROR']) {
      const outcome = checkOutcome('visit.open', { ok: false, error });
      expect(outcome).toEqual(outsideTheContract);
      expect(JSON.stringify(outcome)).not.toMatch(/secret-value|TEAPOT/);
    }
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a bare value', outputExamples['visit.open']],
    ['a string', 'ok'],
    ['an array', [true, outputExamples['visit.open']]],
    ['ok without a value', { ok: true }],
    ['not-ok without an error', { ok: false }],
    ['ok that is not a boolean', { ok: 'true', value: outputExamples['visit.open'] }],
  ])('turns %s into INTERNAL naming the command', (_what, answered) => {
    expect(checkOutcome('visit.open', answered)).toEqual(outsideTheContract);
  });
});

describe('invokeChecked', () => {
  const logged: { fields: Record<string, unknown>; message: string }[] = [];
  const log = { error: (fields: Record<string, unknown>, message: string) => void logged.push({ fields, message }) };
  const core = (invoke: (name: string, input: unknown) => Promise<unknown>): HostedCore => ({ invoke: (call) => invoke(call.name, call.input), subscribe: () => () => undefined });
  const call = { name: 'visit.open', input: { workflowId: 'wf_consent01' } } as Invocation;

  it('hands the call to the core and passes an answer the contract allows', async () => {
    logged.length = 0;
    const seen: unknown[] = [];
    const answer = { ok: true, value: outputExamples['visit.open'] };
    const outcome = await invokeChecked(core(async (name, input) => (seen.push([name, input]), answer)), call, log);
    expect(seen).toEqual([['visit.open', { workflowId: 'wf_consent01' }]]);
    expect(outcome).toEqual(answer);
    expect(logged).toEqual([]);
  });

  it('turns a core that throws into INTERNAL, logging the error’s class but not its message', async () => {
    logged.length = 0;
    const outcome = await invokeChecked(core(async () => Promise.reject(new TypeError('exchange said CT-secret-value'))), call, log);
    expect(outcome).toEqual({ ok: false, error: makeError('INTERNAL', 'The station failed while handling visit.open.') });
    expect(logged).toEqual([{ fields: { command: 'visit.open', error: 'TypeError' }, message: 'station core threw' }]);
    expect(JSON.stringify(logged)).not.toContain('CT-secret-value');
  });

  it('refuses and logs an answer outside the contract, never its value', async () => {
    logged.length = 0;
    const outcome = await invokeChecked(core(async () => ({ ok: true, value: { ...outputExamples['visit.open'], consentToken: 'CT-secret-value' } })), call, log);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(logged).toEqual([{ fields: { command: 'visit.open' }, message: 'station answer refused: outside the contract' }]);
    expect(JSON.stringify([outcome, logged])).not.toContain('CT-secret-value');
  });
});
