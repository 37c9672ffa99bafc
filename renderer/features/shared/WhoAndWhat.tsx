// The line at the top of every workflow screen: which patient and which service. The patient just
// looked up at this bedside is named in full (with sex, age and the ID's last digits); anyone else —
// work picked up from the queue, an emergency patient not identified yet — stays masked.
import { useTranslation } from 'react-i18next';
import { usePatient } from '../lookup/store';
import { PatientInFull } from '../patient/PatientCard';

export function WhoAndWhat({
  patient,
  intervention,
  serviceType,
}: {
  readonly patient: { readonly patientRef: string; readonly maskedName: string } | null;
  readonly intervention: { readonly code: string; readonly name: string; readonly scenario: string };
  readonly serviceType?: 'OUTPATIENT' | 'INPATIENT' | null;
}) {
  const { t } = useTranslation();
  const inHand = usePatient((s) => (patient !== null && s.summary?.patientRef === patient.patientRef ? s.summary : null));
  return (
    <div className="who-what">
      {inHand !== null ? (
        <PatientInFull summary={inHand} />
      ) : (
        <p className="masked patient-name">{patient === null ? t('work.unidentified') : patient.maskedName}</p>
      )}
      <p className="who-what-service">
        <span className="option-code">{intervention.code}</span> {intervention.name}{' '}
        <span className={`scenario scenario-${intervention.scenario}`}>{t(`scenario.${intervention.scenario}.name`)}</span>
        {serviceType !== undefined && serviceType !== null && <span className="muted"> · {t(`serviceType.${serviceType}`)}</span>}
      </p>
    </div>
  );
}
