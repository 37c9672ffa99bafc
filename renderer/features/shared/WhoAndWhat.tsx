// The line at the top of every workflow screen: which patient (masked), which service, which setting.
import { useTranslation } from 'react-i18next';

export function WhoAndWhat({
  patient,
  intervention,
  serviceType,
}: {
  readonly patient: { readonly maskedName: string } | null;
  readonly intervention: { readonly code: string; readonly name: string; readonly scenario: string };
  readonly serviceType?: 'OUTPATIENT' | 'INPATIENT' | null;
}) {
  const { t } = useTranslation();
  return (
    <p className="who-what">
      <span className="masked patient-name">{patient === null ? t('work.unidentified') : patient.maskedName}</span>
      <span>
        <span className="option-code">{intervention.code}</span> {intervention.name}
      </span>
      <span className={`scenario scenario-${intervention.scenario}`}>{t(`scenario.${intervention.scenario}.name`)}</span>
      {serviceType !== undefined && serviceType !== null && <span className="muted">{t(`serviceType.${serviceType}`)}</span>}
    </p>
  );
}
