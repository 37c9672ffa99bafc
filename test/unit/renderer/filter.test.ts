// The intervention filter the nurse types into: every word must match the code or the name, the
// sub-benefit and scenario filters are exact, and the order of the list is kept.
import { describe, expect, it } from 'vitest';
import { filterInterventions, indexInterventions } from '../../../renderer/features/services/filter';
import { interventions } from '../../fixtures/renderer/world';

const index = indexInterventions(interventions);
const none = { search: '', subBenefitCode: '', scenario: '' };

describe('intervention filter', () => {
  it('shows all ~850 without a filter, in order', () => {
    const all = filterInterventions(index, none);
    expect(all).toHaveLength(852);
    expect(all[0]?.code).toBe('SHA-01-001');
  });

  it('finds by code, by words of the name in any order and any case', () => {
    expect(filterInterventions(index, { ...none, search: 'sha-05-001' }).map((i) => i.code)).toEqual(['SHA-05-001']);
    const words = filterInterventions(index, { ...none, search: 'PAEDIATRIC hernia' });
    expect(words.length).toBeGreaterThan(0);
    expect(words.every((i) => /hernia/i.test(i.name) && /paediatric/i.test(i.name))).toBe(true);
  });

  it('narrows by scenario and sub-benefit exactly', () => {
    const capitation = filterInterventions(index, { ...none, scenario: 'capitation' });
    expect(capitation.length).toBeGreaterThan(0);
    expect(capitation.every((i) => i.scenario === 'capitation')).toBe(true);
    const sub = filterInterventions(index, { ...none, subBenefitCode: 'SB-02-A', search: 'visit' });
    expect(sub.every((i) => i.subBenefitCode === 'SB-02-A' && /visit/i.test(i.name))).toBe(true);
  });

  it('shows nothing when nothing matches', () => {
    expect(filterInterventions(index, { ...none, search: 'no such service' })).toEqual([]);
  });
});
