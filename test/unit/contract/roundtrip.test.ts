// Outcomes and events are plain data: they cross IPC and JSON unchanged, and a bridge that sends
// everything through JSON behaves exactly like the contract says.
import { describe, expect, it } from 'vitest';
import type { CommandName, CommandOutcome, StationBridge, StationEvent } from '../../../electron/contract';
import { checkOutput, commandNames, commands, errorCodes, makeError, outcomeSchema, stationEvent, validateInvoke } from '../../../electron/contract';
import { eventExamples, outputExamples } from './examples';

const overJson = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

describe('outcomes through JSON', () => {
  it.each(commandNames)('%s: a successful outcome comes back unchanged and still valid', (name) => {
    const outcome = { ok: true as const, value: outputExamples[name] };
    expect(overJson(outcome)).toStrictEqual(outcome);
    expect(outcomeSchema(commands[name].output).parse(overJson(outcome))).toStrictEqual(outcome);
  });

  it.each(errorCodes)('%s: an error outcome comes back unchanged and still valid', (code) => {
    const outcome = {
      ok: false as const,
      error: makeError(code, 'What happened, in words.', { field: 'idNumber', retryAt: '2025-03-04T09:16:00Z', attemptsLeft: 2 }),
    };
    expect(overJson(outcome)).toStrictEqual(outcome);
    expect(outcomeSchema(commands['patient.lookUp'].output).parse(overJson(outcome))).toStrictEqual(outcome);
  });

  it('every event example comes back unchanged and still valid', () => {
    for (const event of eventExamples) expect(stationEvent.parse(overJson(event))).toStrictEqual(event);
    expect(new Set(eventExamples.map((event) => event.type)).size).toBe(stationEvent.options.length);
  });
});

describe('a bridge that carries everything as JSON', () => {
  // What a shell does: validate the inbound call, let the core answer, check the answer, serialize.
  function jsonBridge(core: (name: CommandName, input: unknown) => unknown): StationBridge & { emit(event: StationEvent): void } {
    const listeners = new Set<(event: StationEvent) => void>();
    return {
      async invoke<N extends CommandName>(name: N, input: unknown) {
        const call = validateInvoke(name, overJson(input));
        const outcome = call.ok ? checkOutput(call.value.name, core(call.value.name, call.value.input)) : call;
        return overJson(outcome) as CommandOutcome<N>;
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      emit(event) {
        for (const listener of listeners) listener(stationEvent.parse(overJson(event)));
      },
    } satisfies StationBridge & { emit(event: StationEvent): void };
  }

  it('answers a typed call with the typed outcome', async () => {
    const bridge = jsonBridge((name) => outputExamples[name]);
    const outcome = await bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    expect(outcome).toStrictEqual({ ok: true, value: outputExamples['patient.lookUp'] });
    if (outcome.ok) expect(outcome.value.badges.fingerprintRequired).toBe(true);
  });

  it('answers a bad call with the validation error and never reaches the core', async () => {
    let reached = false;
    const bridge = jsonBridge(() => (reached = true));
    const outcome = await bridge.invoke('discharge.submit', { workflowId: 'wf_dischg001', reason: 'DECEASED' as 'OTHER' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'VALIDATION', details: { field: 'reason' } } });
    expect(reached).toBe(false);
  });

  it('delivers events until unsubscribed', () => {
    const bridge = jsonBridge(() => null);
    const seen: StationEvent[] = [];
    const unsubscribe = bridge.subscribe((event) => seen.push(event));
    bridge.emit(eventExamples[0]!);
    unsubscribe();
    bridge.emit(eventExamples[1]!);
    expect(seen).toStrictEqual([eventExamples[0]]);
  });
});
