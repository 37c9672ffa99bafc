// What the station has learnt of its ward: the intervention it opens visits for most (the usual),
// the sub-benefit that was listed under, and how many visits each sub-benefit has had — so that a
// look-up asks for those lists first and suggests the ward's service without waiting for the rest.
import type { SubBenefit as WireSubBenefit } from '../../payer';
import type { SettingsStore } from '../settings';
import type { ServiceType } from '../workflows/types';
import { careSettingOf, suggestIntervention, type ContractIntervention } from './interventions';
import type { Lane } from './list-queue';
import type { PatientServices } from './services';

/** The ward's most-used sub-benefits asked for beside the usual one. */
const MOST_USED = 2;
/**
 * The lists a look-up asks for without anyone asking (the usual and most-used included): enough
 * for the ward's suggestion and its everyday services, far from the ~30 a member has. The rest
 * are asked for when the nurse picks one or her search points to one.
 */
export const AUTOMATIC_LISTS = 4;

/** The ward's usual intervention and the sub-benefit it was listed under, as remembered. */
export interface Usual {
  readonly code: string | undefined;
  readonly subBenefitCode: string | undefined;
}

export class WardHabits {
  constructor(private readonly settings: SettingsStore) {}

  usual(serviceType: ServiceType): Usual {
    return { code: this.settings.memo(`usual.${serviceType}`), subBenefitCode: this.settings.memo(`usualSubBenefit.${serviceType}`) };
  }

  /** The sub-benefits this station opened the most visits under, the usual one left out. */
  mostUsed(serviceType: ServiceType, usual: string | undefined): string[] {
    return Object.entries(this.uses(serviceType))
      .filter(([code]) => code !== usual)
      .sort(([, a], [, b]) => b - a)
      .slice(0, MOST_USED)
      .map(([code]) => code);
  }

  /** The order the background follows: the ward's most-used sub-benefits, then the ward's, then the others, each in the exchange's order. */
  inTurn(subBenefits: readonly WireSubBenefit[], serviceType: ServiceType): WireSubBenefit[] {
    const uses = this.uses(serviceType);
    const rank = (s: WireSubBenefit) => -(uses[s.code] ?? 0) * 2 + (fitsWard(s, serviceType) ? 0 : 1);
    return subBenefits.map((s, index) => ({ s, index })).sort((a, b) => rank(a.s) - rank(b.s) || a.index - b.index).map(({ s }) => s);
  }

  /**
   * What a look-up asks for once the patient's sub-benefits are in, beside what it has asked for
   * already: the ward's own sub-benefits (its care setting, not the emergency package), the
   * most-used first, then in the exchange's order, up to AUTOMATIC_LISTS lists in all.
   */
  plan(subBenefits: readonly WireSubBenefit[], asked: ReadonlySet<string>, serviceType: ServiceType): { code: string; lane: Lane }[] {
    const room = AUTOMATIC_LISTS - asked.size;
    if (room <= 0) return [];
    const ward = subBenefits.filter((s) => fitsWard(s, serviceType) && !emergencyPackage(s) && !asked.has(s.code));
    return this.inTurn(ward, serviceType)
      .slice(0, room)
      .map((s) => ({ code: s.code, lane: 'soon' }));
  }

  /**
   * Remembers the intervention a visit was opened for, to suggest it next time, with the
   * sub-benefit it was listed under (so that its list is asked for beside the contacts, without
   * waiting for the sub-benefits), and counts the sub-benefit's visits (the most used are asked
   * for first). `subBenefitCode` is undefined when the look-up had not listed it.
   */
  remember(serviceType: ServiceType, code: string, subBenefitCode: string | undefined): void {
    this.settings.remember(`usual.${serviceType}`, code);
    if (subBenefitCode === undefined) return;
    this.settings.remember(`usualSubBenefit.${serviceType}`, subBenefitCode);
    const uses = this.uses(serviceType);
    uses[subBenefitCode] = (uses[subBenefitCode] ?? 0) + 1;
    this.settings.remember(`subBenefitUses.${serviceType}`, JSON.stringify(uses));
  }

  private uses(serviceType: ServiceType): Record<string, number> {
    try {
      const parsed: unknown = JSON.parse(this.settings.memo(`subBenefitUses.${serviceType}`) ?? '{}');
      if (typeof parsed !== 'object' || parsed === null) return {};
      return Object.fromEntries(Object.entries(parsed).filter((pair): pair is [string, number] => typeof pair[1] === 'number'));
    } catch {
      return {};
    }
  }
}

/**
 * A sub-benefit of the emergency package: emergency interventions carry the code prefix SHA-01 (C
 * "What the service does"), under the sub-benefit SHA-01-SC-01 (R `docs/api/WORKFLOWS.md` §9.7).
 * They start an emergency claim, never a ward's visit.
 */
function emergencyPackage(s: WireSubBenefit): boolean {
  return (s.parentBenefitCode ?? '').trim().toUpperCase() === 'SHA-01' || /^SHA-01-/i.test(s.code);
}

export function fitsWard(s: WireSubBenefit, serviceType: ServiceType): boolean {
  const setting = careSettingOf(s.accessPoint);
  return setting === 'both' || setting === (serviceType === 'INPATIENT' ? 'inpatient' : 'outpatient');
}

/**
 * The intervention that fits the ward (suggestIntervention): from the usual sub-benefit's list
 * when it has one; else the first of the ward's sub-benefits asked for (plan), in the exchange's
 * order, that has one — the first answers decide. A usual intervention whose sub-benefit is not
 * remembered is looked for in all of them. None when none of them has one: the nurse chooses.
 */
export async function suggestFor(
  services: PatientServices,
  patient: { readonly serviceType: ServiceType; readonly contractedFunds: readonly string[] | null },
  usual: Usual,
): Promise<ContractIntervention | null> {
  const pick = (items: readonly ContractIntervention[]) => suggestIntervention(items, patient.serviceType, patient.contractedFunds, usual.code);
  if (usual.subBenefitCode !== undefined) {
    const fromUsual = pick(await services.list(usual.subBenefitCode, 'now'));
    if (fromUsual !== null) return fromUsual;
  }
  const ward = (await services.subBenefits()).filter((s) => fitsWard(s, patient.serviceType));
  // The lists already asked first; the ward's others only when those hold nothing to suggest (a
  // patient whose lists were asked for another care setting earlier in the shift).
  const asked = ward.filter((s) => services.asked(s.code));
  const later = ward.filter((s) => !services.asked(s.code));
  for (const group of [asked, later]) {
    const lists = group.map((s) => services.list(s.code, 'soon'));
    if (usual.code !== undefined && usual.subBenefitCode === undefined) {
      const found = pick((await Promise.all(lists)).flat());
      if (found !== null) return found;
      continue;
    }
    for (const list of lists) {
      const found = pick(await list);
      if (found !== null) return found;
    }
  }
  return null;
}
