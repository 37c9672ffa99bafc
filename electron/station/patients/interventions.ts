// Interventions as the nurse sees them: the exchange's entry turned into the contract's (how it
// starts, what it bills, where it closes), and the one the station suggests for the ward.
import type { z } from 'zod';
import type { intervention as interventionSchema } from '../../contract';
import type { Intervention as WireIntervention } from '../../payer';
import type { InterventionBrief, ServiceType } from '../workflows/types';
import { text } from './text';

export type ContractIntervention = z.infer<typeof interventionSchema>;

function scenarioOf(s: WireIntervention['scenario']): ContractIntervention['scenario'] {
  return s === 'emergency' || s === 'elective-preauth' || s === 'capitation' || s === 'per-diem' ? s : 'other';
}

export function careSettingOf(accessPoint: string | undefined): ContractIntervention['careSetting'] {
  if (accessPoint === 'IP') return 'inpatient';
  if (accessPoint === 'OP') return 'outpatient';
  return 'both';
}

function mechanismOf(m: string | undefined): ContractIntervention['paymentMechanism'] {
  if (m === 'FIXED_FEE_FOR_SERVICE') return 'FEE_FOR_SERVICE';
  if (m === 'FEE_FOR_SERVICE' || m === 'CAPITATION' || m === 'PER_DIEM' || m === 'CASE_BASED') return m;
  return 'OTHER';
}

/** An intervention as the contract shows it; `subBenefitCode` is the sub-benefit it was listed under. */
export function toContractIntervention(i: WireIntervention, subBenefitCode: string | null): ContractIntervention {
  const scenario = scenarioOf(i.scenario);
  const careSetting = careSettingOf(i.accessPoint);
  const serviceType: ServiceType = careSetting === 'inpatient' ? 'INPATIENT' : 'OUTPATIENT';
  const startsWith = scenario === 'emergency' ? 'emergency' : scenario === 'elective-preauth' ? 'elective' : 'visit';
  const tariff = i.tariff ?? i.kephLevelTariff ?? i.applicableTariff;
  return {
    code: i.code,
    name: text(i.name, 200) ?? i.code,
    subBenefitCode: text(subBenefitCode ?? undefined, 60),
    fund: text(i.fund, 60),
    careSetting,
    paymentMechanism: mechanismOf(i.paymentMechanism),
    scenario,
    handling: {
      startsWith,
      serviceType,
      needsPreauth: i.needsPreauth,
      needsDoctor: i.needsDoctorAuthorization || scenario === 'emergency',
      billing: scenario === 'per-diem' || scenario === 'emergency' ? 'automatic' : 'manual',
      closeBy: serviceType === 'INPATIENT' && startsWith !== 'emergency' ? 'discharge' : 'submit',
    },
    tariffKes: tariff === undefined || tariff < 0 ? null : Math.min(tariff, 1_000_000_000),
    protocolCode: text(i.protocolCode, 60),
    requiredDocuments: [...i.applicableDocumentTypes, ...i.requiredPreauthDocumentTypes].map((d) => d.slice(0, 100)).slice(0, 30),
    preauthDocuments: i.requiredPreauthDocumentTypes.map((d) => d.slice(0, 100)).slice(0, 30),
  };
}

export function briefOf(i: ContractIntervention): InterventionBrief {
  return { code: i.code, name: i.name, scenario: i.scenario };
}

/** Whether an intervention can be used for an ordinary visit of this service type. */
function fitsVisit(i: ContractIntervention, serviceType: ServiceType): boolean {
  if (i.handling.startsWith !== 'visit' || i.handling.needsPreauth) return false;
  return i.careSetting === 'both' || (serviceType === 'INPATIENT' ? i.careSetting === 'inpatient' : i.careSetting === 'outpatient');
}

/**
 * The intervention that fits the ward: an ordinary visit of the ward's service type, of a fund the
 * facility is contracted for, billed the way that ward bills (capitation outpatient, per diem
 * inpatient). The ward's usual one (the last this station opened a visit for) wins when it fits;
 * otherwise the first, in the exchange's order, of the first sub-benefit that has any — the
 * exchange lists a sub-benefit's plain, canonical intervention first.
 */
export function suggestIntervention(
  interventions: readonly ContractIntervention[],
  serviceType: ServiceType,
  contractedFunds: readonly string[] | null,
  usual: string | undefined,
): ContractIntervention | null {
  const preferred = serviceType === 'INPATIENT' ? 'per-diem' : 'capitation';
  const candidates = interventions.filter(
    (i) => fitsVisit(i, serviceType) && i.scenario === preferred && (contractedFunds === null || i.fund === null || contractedFunds.includes(i.fund.toUpperCase())),
  );
  return candidates.find((i) => i.code === usual) ?? candidates[0] ?? null;
}
