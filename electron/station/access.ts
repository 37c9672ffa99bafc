// Who may change what. The administrator (a staff member whose role is administrator) decides where
// secrets go: the exchange, the facility's identity to it, where the authorization link may load
// from, training mode and how soon the station locks. Anyone signed in may change the ward's own
// settings (language, reader, usual service type).
import { administratorSettings, type StationSettings } from '../contract';
import type { ProvisionedStaff } from './staff';

type AdministratorSetting = (typeof administratorSettings)[number];

/** The administrator's settings this update would change (a value given equal to the current one changes nothing). */
export function administratorChanges(before: Readonly<Partial<StationSettings>>, update: Readonly<Partial<StationSettings>>): AdministratorSetting[] {
  return administratorSettings.filter((key) => update[key] !== undefined && JSON.stringify(update[key]) !== JSON.stringify(before[key]));
}

/** The demo staff member a training station starts signed in as (contracts.md). */
export const TRAINING_NURSE: ProvisionedStaff = { name: 'Training nurse', role: 'nurse', pin: '1234' };

/** In training mode, the demo facility is chosen on the first-run screen by whoever is signed in. */
export const TRAINING_FACILITY_KEYS: ReadonlySet<string> = new Set(['clientId', 'facilityCode', 'facilityName', 'agentNationalId']);
