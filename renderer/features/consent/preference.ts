// Which route the nurse picked on the patient screen, so the consent screen opens on it: the SMS
// panel (contacts and "Send code") or the fingerprint panel (started at once).
import { create } from 'zustand';
import { holdsPatientData } from '../../state/patient-data';

interface Preference {
  readonly smsChosen: Readonly<Record<string, boolean>>;
}

export const useRoutePreference = create<Preference>()(() => ({ smsChosen: {} }));

export function chooseSms(workflowId: string, chosen: boolean): void {
  useRoutePreference.setState((state) => ({ smsChosen: { ...state.smsChosen, [workflowId]: chosen } }));
}

holdsPatientData(() => useRoutePreference.setState({ smsChosen: {} }));
