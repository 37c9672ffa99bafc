// The fault matrix for flow C (emergency) (see fault-matrix.ts): every kind of exchange call × each fault.
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../support/fault-proxy';
import { failures, faultMatrix, runFaults, summary, type CaseResult } from './fault-matrix';

const FLOW = 'C' as const;
const matrix = faultMatrix();
const all: CaseResult[] = [];
afterAll(() => {
  // The account the lead reads in the run's output.
  console.info(`fault matrix, ${FLOW}: ${summary(all)}`);
});

describe('fault matrix, flow C (emergency)', () => {
  it.each(FAULTS)('every call meeting %s: the flow completes or stops at an actionable message; nothing lost or done twice', { timeout: 240_000 }, async (fault) => {
    const results = await runFaults(matrix, FLOW, fault);
    all.push(...results);
    expect(results.length).toBeGreaterThan(5);
    expect(failures(results)).toEqual([]);
  });
});
