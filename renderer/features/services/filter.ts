// Filtering the member's interventions (~850) as the nurse types. The station core already pages
// and searches; this keeps each keystroke local, over the list loaded once per patient.
import type { Intervention } from '../../../electron/contract';

export interface InterventionIndex {
  readonly items: readonly Intervention[];
  /** Lower-cased "code name" per item, built once. */
  readonly haystacks: readonly string[];
}

export interface InterventionFilter {
  readonly search: string;
  readonly subBenefitCode: string;
  readonly scenario: string;
}

export function indexInterventions(items: readonly Intervention[]): InterventionIndex {
  return { items, haystacks: items.map((item) => `${item.code} ${item.name}`.toLowerCase()) };
}

/** Every word typed must appear in the code or the name; the sub-benefit and scenario filters are exact. */
export function filterInterventions(index: InterventionIndex, filter: InterventionFilter): Intervention[] {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  const result: Intervention[] = [];
  for (let i = 0; i < index.items.length; i++) {
    const item = index.items[i] as Intervention;
    if (filter.subBenefitCode !== '' && item.subBenefitCode !== filter.subBenefitCode) continue;
    if (filter.scenario !== '' && item.scenario !== filter.scenario) continue;
    const haystack = index.haystacks[i] as string;
    if (words.every((word) => haystack.includes(word))) result.push(item);
  }
  return result;
}
