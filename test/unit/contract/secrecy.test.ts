// No key of anything the renderer receives can carry a secret: every output, every event and the
// error envelope are walked key by key. Inputs may carry only the SMS code the nurse types and the
// client secret on sign-in.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { commandNames, commands, consentView, stationError, stationEvent } from '../../../electron/contract';
import { secretKeys, walkSchema } from './schema-walk';

describe('what the renderer receives', () => {
  it.each(commandNames)('%s: its output has no key that can carry a secret, and no key that cannot be seen', (name) => {
    const walk = walkSchema(commands[name].output);
    expect(walk.problems).toEqual([]);
    expect(walk.keys.length).toBeGreaterThan(0);
    expect(secretKeys(walk)).toEqual([]);
  });

  it('events and the error envelope carry no secret-bearing key either', () => {
    for (const schema of [stationEvent, stationError]) {
      const walk = walkSchema(schema);
      expect(walk.problems).toEqual([]);
      expect(secretKeys(walk)).toEqual([]);
    }
  });

  it('the walk notices a secret-bearing key added anywhere, however deep', () => {
    const leaky = consentView.extend({ visitWorkflowId: z.strictObject({ consentToken: z.string() }).nullable() });
    expect(secretKeys(walkSchema(leaky))).toEqual(['visitWorkflowId.consentToken']);
    for (const key of ['accessToken', 'client_secret', 'authGuid', 'otp', 'password', 'authorizationCode', 'preauthToken']) {
      expect(secretKeys(walkSchema(z.strictObject({ view: z.array(z.strictObject({ [key]: z.string() })) })))).toEqual([`view[].${key}`]);
    }
  });

  it('the walk refuses places a secret could hide unseen: open objects, records, unknown values', () => {
    const hiding = z.strictObject({
      loose: z.object({ a: z.string() }),
      map: z.record(z.string(), z.string()),
      blob: z.unknown(),
      when: z.date(),
    });
    expect(walkSchema(hiding).problems).toEqual([
      'loose: object is not strict (may carry unknown keys)',
      'map: record is not allowed in the contract',
      'blob: unknown is not allowed in the contract',
      'when: date is not allowed in the contract',
    ]);
  });
});

describe('what the renderer sends', () => {
  /** The only secrets an input may carry; the SMS code travels under the innocuous key `code`. */
  const allowedSecretInputs: Partial<Record<string, string[]>> = { 'facility.signIn': ['clientSecret'] };

  it.each(commandNames)('%s: its input is strict and carries no secret beyond the ones allowed', (name) => {
    const walk = walkSchema(commands[name].input);
    expect(walk.problems).toEqual([]);
    expect(secretKeys(walk, new Set(allowedSecretInputs[name] ?? []))).toEqual([]);
  });

  it('the client secret goes in on sign-in and never comes back out', () => {
    expect(walkSchema(commands['facility.signIn'].input).keys.map((k) => k.key)).toContain('clientSecret');
    expect(commandNames.filter((name) => walkSchema(commands[name].output).keys.some((k) => /secret/i.test(k.key)))).toEqual([]);
  });
});
