// What is left of one intervention for the patient, as the nurse sees it.
import type { z } from 'zod';
import type { utilization as utilizationSchema } from '../../contract';
import type { Utilization as WireUtilization } from '../../payer';
import { text } from './text';

/**
 * The exchange answers one record (the portal docs) or one per limit scope (UAT, R): the limits are
 * read from the first record that has them, and the service is available only when some record
 * answered and none says it is exhausted or not eligible.
 */
export function summariseUtilization(interventionCode: string, records: readonly WireUtilization[]): z.infer<typeof utilizationSchema> {
  const limit = (max: number | undefined, used: number | undefined) =>
    max === undefined ? null : { limitKes: clampKes(max), usedKes: clampKes(used ?? 0), remainingKes: clampKes(max - (used ?? 0)) };
  const individual = limit(...firstPair(records, (u) => [u.individualMaxLimit, u.individualUtilisedLimit]));
  const household = limit(...firstPair(records, (u) => [u.householdMaxLimit, u.householdUtilisedLimit]));
  const exhausted = records.some((u) => {
    const rows = [limit(u.individualMaxLimit, u.individualUtilisedLimit), limit(u.householdMaxLimit, u.householdUtilisedLimit)];
    return u.eligible === false || rows.some((l) => l !== null && l.remainingKes <= 0);
  });
  const scopes = [...new Set(records.map((u) => u.limitScope?.trim()).filter((s): s is string => s !== undefined && s !== ''))];
  const days = records.map((u) => u.utilizationDays).filter((d): d is number => d !== undefined);
  return {
    interventionCode,
    available: records.length > 0 && !exhausted,
    individual,
    household,
    limitScope: text(scopes.join(', '), 100),
    nextAvailableAt: text(records.map((u) => u.nextAvailability ?? u.nextAvailableDate).find((d) => d !== undefined && d.trim() !== ''), 40),
    utilizationDays: days.length === 0 ? null : Math.max(0, Math.round(Math.max(...days))),
  };
}

/** The first record's pair of values where the first is known. */
function firstPair<T>(records: readonly T[], pick: (record: T) => [number | undefined, number | undefined]): [number | undefined, number | undefined] {
  return records.map(pick).find(([max]) => max !== undefined) ?? [undefined, undefined];
}

function clampKes(value: number): number {
  return Math.min(Math.max(0, Math.round(value * 100) / 100), 1_000_000_000);
}
