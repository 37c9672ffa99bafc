// What the nurse brought to a new emergency claim from the patient screen: the emergency
// intervention chosen there and, when the patient is already known, who it is (to identify them
// straight after the doctor's code).
import { create } from 'zustand';
import { go } from '../../state/navigation';
import { holdsPatientData } from '../../state/patient-data';

interface Draft {
  readonly interventionCode: string | null;
  readonly patientRef: string | null;
}

export const useEmergencyDraft = create<Draft>()(() => ({ interventionCode: null, patientRef: null }));

export function startEmergencyWith(interventionCode: string | null, patientRef: string | null): void {
  useEmergencyDraft.setState({ interventionCode, patientRef });
  go({ name: 'emergency-new' });
}

holdsPatientData(() => useEmergencyDraft.setState({ interventionCode: null, patientRef: null }));
