// After the look-up: the patient in hand in full, eligibility the moment SHA answers it, then the
// phones and the suggested service, the services to choose from as they arrive, and this patient's
// unfinished work. The next step is in the action bar: "This is the patient" is confirmed by the
// same press that starts consent (no extra click). The defaults (the covered scheme, the one
// intervention that fits the ward) come from the station core, so a routine visit needs no choice.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Intervention, PatientSummary, WorkItem } from '../../../electron/contract';
import { go, settle, useNavigation } from '../../state/navigation';
import { useFormat } from '../../i18n/format';
import { useStation } from '../../state/station-store';
import { run, useWorkflows } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { patience, Waiting } from '../../ui/Waiting';
import { chooseSms } from '../consent/preference';
import { startEmergencyWith } from '../emergency/draft';
import { forgetPatient, loadDetails, lookUpAgain, reopenPatient, usePatient } from '../lookup/store';
import { InterventionDetails } from '../services/InterventionDetails';
import { InterventionPicker } from '../services/InterventionPicker';
import { retryServices, selectedIntervention, useServices } from '../services/store';
import { PatientSteps, summaryPosition } from '../shared/PatientSteps';
import { WorkRows, useWorkQueue } from '../work/WorkRows';
import { coveredByPomsf, PomsfPanel } from '../programmes/PomsfPanel';
import { EligibilityPanel } from './EligibilityPanel';
import { PatientBanner, useIdentityLine } from './PatientCard';

type StartsWith = Intervention['handling']['startsWith'];
/** The service consent would start for: its code, and which workflow it starts. */
interface Start {
  readonly code: string;
  readonly startsWith: StartsWith;
}

/** How a service of this scenario starts (the station's `handling.startsWith`, patients/interventions.ts). */
function startsWithOf(scenario: Intervention['scenario']): StartsWith {
  if (scenario === 'elective-preauth') return 'elective';
  return scenario === 'emergency' ? 'emergency' : 'visit';
}

/**
 * The service chosen, as its list gives it; or the station's suggestion, chosen by default, whose
 * list has not reached the screen yet: the suggestion says enough to start consent, so the nurse
 * never waits for the services list to begin.
 */
function useStart(summary: PatientSummary | null): Start | null {
  const chosen = useServices(selectedIntervention);
  const selected = useServices((s) => s.selected);
  const suggested = summary?.suggestedIntervention ?? null;
  if (chosen !== null) return { code: chosen.code, startsWith: chosen.handling.startsWith };
  if (suggested !== null && selected === suggested.code) return { code: suggested.code, startsWith: startsWithOf(suggested.scenario) };
  return null;
}

export default function PatientScreen() {
  const { t } = useTranslation();
  const summary = usePatient((s) => s.summary);
  const start = useStart(summary);
  const pharmacy = useStation((s) => s.settings?.stationRole === 'pharmacy');

  const work = useWorkQueue(summary?.patientRef, false, summary === null);
  const openVisit = work.items?.find(isOpenVisit) ?? null;
  // A second consent only when she asks for one: for the patient it was asked for.
  const [anotherConsentFor, setAnotherConsent] = useState<string | null>(null);
  const anotherConsent = anotherConsentFor !== null && anotherConsentFor === summary?.patientRef;
  const route = useNavigation((s) => s.route);
  const wanted = route.name === 'patient' ? route.patientRef : undefined;
  const reopening = wanted !== undefined && summary?.patientRef !== wanted;
  useEffect(() => {
    if (reopening) void reopenPatient(wanted);
    else if (summary === null) go({ name: 'lookup' });
    else if (wanted === undefined) settle({ name: 'patient', patientRef: summary.patientRef });
  }, [reopening, wanted, summary]);
  if (summary === null || reopening) {
    return (
      <Screen title={t('patient.title')}>
        <p className="progress">{t('common.loading')}</p>
      </Screen>
    );
  }

  return (
    <Screen
      title={t('patient.title')}
      steps={<PatientSteps position={summaryPosition(summary, start?.startsWith ?? 'visit')} />}
      banner={<PatientBanner patient={summary} kicker={t('identity.check')} />}
    >
      {openVisit !== null && !anotherConsent && <OpenVisitPanel item={openVisit} />}
      <div className={summary.covered ? 'patient-grid' : 'patient-grid single'}>
        <div className="stack">
          {pharmacy && <Button onClick={() => go({ name: 'pharmacy' })}>{t('pharmacy.toPrescriptions')}</Button>}
          <EligibilityPanel summary={summary} />
          {coveredByPomsf(summary.schemes) && <PomsfPanel patientRef={summary.patientRef} />}
        </div>
        {summary.covered && <ServicesPanel patientRef={summary.patientRef} />}
      </div>
      <PatientWork items={work.items} error={work.error} reload={work.reload} />
      {openVisit !== null && !anotherConsent ? (
        <OpenVisitNext visit={openVisit} onAnotherConsent={() => setAnotherConsent(summary.patientRef)} />
      ) : (
        <NextStep summary={summary} />
      )}
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
      {/* Before the services, the phones and the suggested one (the action bar says so and offers the way out). */}
      {(!started || loading) && <p className="progress">{t('services.loading')}</p>}
      {error !== null && <ErrorNotice error={error} onRetry={retryServices} />}
      {started && !loading && error === null && <InterventionPicker />}
      {chosen !== null && <InterventionDetails intervention={chosen} />}
    </section>
  );
}

function PatientWork({ items, error, reload }: ReturnType<typeof useWorkQueue>) {
  const { t } = useTranslation();
  if (error !== null) return <ErrorNotice error={error} onRetry={reload} />;
  if (items === null || items.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="patient-work-title">
      <h2 id="patient-work-title">{t('patient.work')}</h2>
      <WorkRows items={items} />
    </section>
  );
}

/** The bar: Cancel closes the patient; the note names who is confirmed; the one way on. */
function NextStep({ summary }: { readonly summary: PatientSummary }) {
  const { t } = useTranslation();
  const details = usePatient((s) => s.details);
  const busy = usePatient((s) => s.busy);
  const start = useStart(summary);
  const suggestedComing = useServices((s) => s.selected !== null && (s.loading || s.waiting.length > 0) && selectedIntervention(s) === null);
  const failure = useWorkflows((s) => s.failures.patient);
  const cancel = closeThisPatient(t);

  if (!summary.covered) {
    return (
      <ActionBar cancel={cancel} note={<p>{t('patient.notCoveredNext')}</p>}>
        <Button tone="primary" busy={busy} onClick={() => void lookUpAgain()}>
          {t('eligibility.checkAgain')}
        </Button>
      </ActionBar>
    );
  }
  if (details === 'loading') {
    return (
      <ActionBar
        cancel={cancel}
        note={
          <Waiting patienceMs={patience.details} onRetry={() => void loadDetails()}>
            {t('patient.start.detailsLoading')}
          </Waiting>
        }
      />
    );
  }
  if (details !== 'ready') {
    return <ActionBar cancel={cancel} note={<ErrorNotice error={details} onRetry={() => void loadDetails()} />} />;
  }
  if (summary.schemeChoiceNeeded) return <ActionBar cancel={cancel} note={<p>{t('patient.start.chooseSchemeFirst')}</p>} />;
  if (start === null) {
    return <ActionBar cancel={cancel} note={<p className={suggestedComing ? 'progress' : undefined}>{suggestedComing ? t('patient.start.suggestedLoading') : t('patient.start.chooseService')}</p>} />;
  }
  return (
    <ActionBar cancel={cancel} note={<Confirmation summary={summary} failure={failure?.error} />}>
      <StartButtons summary={summary} start={start} />
    </ActionBar>
  );
}

/** "This is the patient: Wanjiku Mumbi Kamau" — confirmed by the press that starts consent. */
function Confirmation({ summary, failure }: { readonly summary: PatientSummary; readonly failure: Parameters<typeof ErrorNotice>[0]['error'] | undefined }) {
  const { t } = useTranslation();
  const line = useIdentityLine(summary.identity, summary.ageYears);
  return (
    <>
      {failure !== undefined && <ErrorNotice error={failure} />}
      <p id="confirm-patient">
        <span className="confirm-who">{t('patient.confirm', { name: summary.identity.fullName ?? summary.maskedName })}</span>
        <span className="small"> · {line}</span>
      </p>
    </>
  );
}

function StartButtons({ summary, start }: { readonly summary: PatientSummary; readonly start: Start }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending.patient) !== undefined;
  const { code, startsWith } = start;

  if (startsWith === 'elective') {
    return (
      <Button tone="primary" busy={pending} aria-describedby="confirm-patient" onClick={() => void beginElective(summary.patientRef, code)}>
        {t('patient.start.elective')}
      </Button>
    );
  }
  if (startsWith === 'emergency') {
    return (
      <Button tone="primary" aria-describedby="confirm-patient" onClick={() => startEmergencyWith(code, summary.patientRef)}>
        {t('patient.start.emergency')}
      </Button>
    );
  }
  const smsPossible = summary.badges.smsCodeAllowed && summary.hasPhone;
  return (
    <>
      {smsPossible && (
        <Button busy={pending} aria-describedby="confirm-patient" onClick={() => void beginConsent(summary.patientRef, code, 'sms')}>
          {t('consent.bySms')}
        </Button>
      )}
      <Button tone="primary" busy={pending} aria-describedby="confirm-patient" onClick={() => void beginConsent(summary.patientRef, code, 'fingerprint')}>
        {t('consent.byFingerprint')}
      </Button>
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

type OpenVisit = WorkItem & { readonly view: { readonly kind: 'visit' } };

/** A visit of this station's still open for the patient (opening included: it is on its way). */
function isOpenVisit(item: WorkItem): item is OpenVisit {
  return item.view.kind === 'visit' && (item.view.state === 'open' || item.view.state === 'opening');
}

/** The patient's open visit, first on the screen: what it is for and since when. */
function OpenVisitPanel({ item }: { readonly item: OpenVisit }) {
  const { t } = useTranslation();
  const format = useFormat();
  const view = item.view;
  return (
    <section className="panel open-visit-first" aria-labelledby="open-visit-title">
      <h2 id="open-visit-title">{t('patient.openVisit.title')}</h2>
      <p>
        <span className="service-name">{view.intervention.name}</span> <span className="option-code">{view.intervention.code}</span>
        {view.startedAt !== null && <> · {t('patient.openVisit.since', { time: format.dateTime(view.startedAt) })}</>}
        {view.lines.length > 0 && <> · {t('patient.openVisit.lines', { count: view.lines.length })}</>}
      </p>
      <p className="muted">{t('patient.openVisit.explain')}</p>
    </section>
  );
}

/** With a visit open, its continuation is the next step; a new consent is asked for, not offered first. */
function OpenVisitNext({ visit, onAnotherConsent }: { readonly visit: OpenVisit; readonly onAnotherConsent: () => void }) {
  const { t } = useTranslation();
  return (
    <ActionBar cancel={closeThisPatient(t)}>
      <Button onClick={onAnotherConsent}>{t('patient.openVisit.another')}</Button>
      <Button tone="primary" onClick={() => go({ name: 'workflow', workflowId: visit.view.workflowId })}>
        {t('patient.openVisit.continue')}
      </Button>
    </ActionBar>
  );
}

/** The action bar's way out of the patient screen: close this patient and look up another. */
function closeThisPatient(t: TFunction) {
  return {
    describes: t('patient.cancelWhat'),
    onClick: () => {
      forgetPatient();
      go({ name: 'lookup' });
    },
  };
}
