// The banner at the top of every workflow screen: which patient, in full (the look-up's answer, or
// what the open workflow keeps: patient.inHand), and which service. It stays in view while the
// screen scrolls (ui/Screen.tsx's `banner`).
import { PatientBanner } from '../patient/PatientCard';

export function WhoAndWhat({
  workflowId,
  patient,
  intervention,
  serviceType,
}: {
  readonly workflowId: string;
  readonly patient: { readonly patientRef: string; readonly maskedName: string } | null;
  readonly intervention: { readonly code: string; readonly name: string; readonly scenario: string };
  readonly serviceType?: 'OUTPATIENT' | 'INPATIENT' | null;
}) {
  return <PatientBanner workflowId={workflowId} patient={patient} service={intervention} serviceType={serviceType ?? null} />;
}
