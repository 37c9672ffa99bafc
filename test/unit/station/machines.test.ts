import { describe, expect, it } from 'vitest';
import { consentState, dischargeState, electiveState, emergencyState, verificationStep, visitState } from '../../../electron/contract';
import { StationFailure } from '../../../electron/station/errors';
import { isTerminal, machines, transitionOf, verificationMachine, verificationNext } from '../../../electron/station/machines';

const enums = { consent: consentState, visit: visitState, discharge: dischargeState, elective: electiveState, emergency: emergencyState } as const;

describe('workflow transition tables', () => {
  it.each(Object.keys(machines) as (keyof typeof machines)[])('%s: one row per contract state, every target a contract state', (kind) => {
    const table = machines[kind] as unknown as Record<string, Record<string, string>>;
    expect(Object.keys(table).sort()).toEqual([...enums[kind].options].sort());
    for (const row of Object.values(table)) for (const target of Object.values(row)) expect(enums[kind].options).toContain(target);
  });

  it('the verification table covers every stage of the contract', () => {
    const stages = verificationStep.shape.stage.options;
    expect(Object.keys(verificationMachine).sort()).toEqual([...stages].sort());
  });

  it('moves along listed transitions and refuses the rest with WRONG_STATE', () => {
    expect(transitionOf('discharge', 'sending', 'submitted')).toBe('submitted');
    expect(transitionOf('elective', 'finalised', 'openVisit')).toBe('opening-visit');
    let thrown: unknown;
    try {
      transitionOf('discharge', 'submitted', 'send');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StationFailure);
    expect((thrown as StationFailure).error).toMatchObject({ code: 'WRONG_STATE', details: { state: 'submitted' } });
    expect(() => verificationNext('verified', 'smsSent')).toThrow(StationFailure);
  });

  it('a submitted claim and an opened visit are ends: nothing follows them', () => {
    expect(isTerminal('discharge', 'submitted')).toBe(true);
    expect(isTerminal('consent', 'visit-opened')).toBe(true);
    expect(isTerminal('emergency', 'submitted')).toBe(true);
    expect(isTerminal('visit', 'open')).toBe(false);
    expect(isTerminal('elective', 'finalised')).toBe(false);
  });
});
