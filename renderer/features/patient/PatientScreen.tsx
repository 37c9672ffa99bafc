// After the look-up: eligibility the moment SHA answers it, then the phones and the suggested
// service, the services to choose from as they arrive, this patient's unfinished work, and the way
// to take consent for the chosen service. The defaults (the covered scheme, the one intervention
// that fits the ward) come from the station core, so a routine visit needs no choice.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Intervention, PatientSummary } from '../../../electron/contract';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { patience, Waiting } from '../../ui/Waiting';
import { chooseSms } from '../consent/preference';
import { startEmergencyWith } from '../emergency/draft';
import { forgetPatient, loadDetails, usePatient } from '../lookup/store';
import { InterventionDetails } from '../services/InterventionDetails';
import { InterventionPicker } from '../services/InterventionPicker';
import { retryServices, selectedIntervention, useServices } from '../services/store';
import { WorkList, useWorkList } from '../work/WorkList';
import { EligibilityPanel } from './EligibilityPanel';

export default function PatientScreen() {
  const { t } = useTranslation();
  const summary = usePatient((s) => s.summary);

  useEffect(() => {
    if (summary === null) go({ name: 'lookup' });
  }, [summary]);
  if (summary === null) return null;

  return (
    <Screen
      title={t('patient.title')}
      aside={
        <Button
          onClick={() => {
            forgetPatient();
            go({ name: 'lookup' });
          }}
        >
          {t('patient.another')}
        </Button>
      }
    >
      <div className={summary.covered ? 'patient-grid' : 'patient-grid single'}>
        <EligibilityPanel summary={summary} />
        {summary.covered && <ServicesPanel patientRef={summary.patientRef} />}
      </div>
      <PatientWork patientRef={summary.patientRef} />
      {summary.covered && <StartBar summary={summary} />}
    </Screen>
  );
}

function ServicesPanel({ patientRef }: { readonly patientRef: string }) {
  const { t } = useTranslation();
  // Narrow subscriptions: a keystroke in the search must redraw the list, not this whole panel.
  const started = useServices((s) => s.patientRef === patientRef);
  const loading = useServices((s) => s.loading);
  const error = useServices((s) => s.error);
  const chosen = useServices(selectedIntervention);
  return (
    <section className="panel services" aria-labelledby="services-title">
      <h2 id="services-title">{t('services.title')}</h2>
      {/* Before the services, the phones and the suggested one (the start bar says so and offers the way out). */}
      {(!started || loading) && <p className="progress">{t('services.loading')}</p>}
      {error !== null && <ErrorNotice error={error} onRetry={retryServices} />}
      {started && !loading && error === null && <InterventionPicker />}
      {chosen !== null && <InterventionDetails intervention={chosen} />}
    </section>
  );
}

function PatientWork({ patientRef }: { readonly patientRef: string }) {
  const { t } = useTranslation();
  const { items, error, reload } = useWorkList(patientRef, false);
  if (error !== null) return <ErrorNotice error={error} onRetry={reload} />;
  if (items === null || items.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="patient-work-title">
      <h2 id="patient-work-title">{t('patient.work')}</h2>
      <WorkList items={items} emptyText="" />
    </section>
  );
}

function StartBar({ summary }: { readonly summary: PatientSummary }) {
  const { t } = useTranslation();
  const details = usePatient((s) => s.details);
  const chosen = useServices(selectedIntervention);
  const suggestedComing = useServices((s) => s.selected !== null && (s.loading || s.waiting.length > 0) && selectedIntervention(s) === null);
  const pending = useWorkflows((s) => s.pending.patient);
  const failure = useWorkflows((s) => s.failures.patient);

  if (details === 'loading') {
    return (
      <div className="startbar">
        <Waiting patienceMs={patience.details} onRetry={() => void loadDetails()}>
          {t('patient.start.detailsLoading')}
        </Waiting>
      </div>
    );
  }
  if (details !== 'ready') {
    return (
      <div className="startbar">
        <ErrorNotice error={details} onRetry={() => void loadDetails()} />
      </div>
    );
  }
  if (summary.schemeChoiceNeeded) {
    return <Notice tone="info">{t('patient.start.chooseSchemeFirst')}</Notice>;
  }
  if (chosen === null && suggestedComing) {
    return (
      <div className="startbar">
        <p className="progress">{t('patient.start.suggestedLoading')}</p>
      </div>
    );
  }
  if (chosen === null) {
    return (
      <div className="startbar">
        <p>{t('patient.start.chooseService')}</p>
      </div>
    );
  }
  return (
    <div className="startbar">
      {failure !== undefined && <ErrorNotice error={failure.error} />}
      <StartButtons summary={summary} intervention={chosen} pending={pending !== undefined} />
    </div>
  );
}

function StartButtons({ summary, intervention, pending }: { readonly summary: PatientSummary; readonly intervention: Intervention; readonly pending: boolean }) {
  const { t } = useTranslation();
  const startsWith = intervention.handling.startsWith;

  if (startsWith === 'elective') {
    return (
      <>
        <p>{t('patient.start.electiveHint')}</p>
        <Button tone="primary" busy={pending} onClick={() => void beginElective(summary.patientRef, intervention.code)}>
          {t('patient.start.elective')}
        </Button>
      </>
    );
  }
  if (startsWith === 'emergency') {
    return (
      <>
        <p>{t('patient.start.emergencyHint')}</p>
        <Button tone="primary" onClick={() => startEmergencyWith(intervention.code, summary.patientRef)}>
          {t('patient.start.emergency')}
        </Button>
      </>
    );
  }
  const smsPossible = summary.badges.smsCodeAllowed && summary.hasPhone;
  return (
    <>
      <Button tone="primary" busy={pending} onClick={() => void beginConsent(summary.patientRef, intervention.code, 'fingerprint')}>
        {t('consent.byFingerprint')}
      </Button>
      <Button tone={smsPossible ? 'primary' : 'secondary'} busy={pending} disabled={!smsPossible} aria-describedby={smsPossible ? undefined : 'sms-why-not'} onClick={() => void beginConsent(summary.patientRef, intervention.code, 'sms')}>
        {t('consent.bySms')}
      </Button>
      {!smsPossible && (
        <p id="sms-why-not" className="muted small">
          {summary.hasPhone ? t('patient.start.smsNotAllowed') : t('patient.start.noPhone')}
        </p>
      )}
    </>
  );
}

async function beginConsent(patientRef: string, interventionCode: string, route: 'fingerprint' | 'sms'): Promise<void> {
  const begun = await run('patient', 'consent.begin', { patientRef, interventionCode });
  if (!begun.ok) return;
  const workflowId = begun.value.workflowId;
  chooseSms(workflowId, route === 'sms');
  go({ name: 'workflow', workflowId });
  if (route === 'fingerprint' && begun.value.next.includes('consent.startFingerprint')) {
    await run(workflowId, 'consent.startFingerprint', { workflowId });
  }
}

async function beginElective(patientRef: string, interventionCode: string): Promise<void> {
  const begun = await run('patient', 'elective.begin', { patientRef, interventionCode });
  if (begun.ok) go({ name: 'workflow', workflowId: begun.value.workflowId });
}
