// The frame around every screen, top to bottom: the training-mode stripe, the top bar (screens,
// language, lock), a notice when a doctor or SHA has answered, the screen itself (the only part
// that scrolls), the row of the screen's action bar, and the status bar with the exchange and reader
// states. Nothing is laid over anything: each has its own row, so no bar hides the screen.
import { lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from './i18n';
import { LookupScreen } from './features/lookup/LookupScreen';
import { LockScreen } from './features/lock/LockScreen';
import { StatusBar } from './features/status/StatusBar';
import { TopBar } from './features/status/TopBar';
import { AnswerNotice } from './features/work/AnswerNotice';
import { claimsMayHaveChanged, refreshClaims } from './features/claims/store';
import { queueMayHaveChanged, refreshQueue } from './features/work/queue';
import { subscribe } from './state/bridge';
import { useNavigation } from './state/navigation';
import type { Route } from './state/navigation';
import { loadAll, reportActivity, useStation } from './state/station-store';
import { actionBarSlot } from './ui/ActionBar';
import { Button } from './ui/Button';
import { ErrorNotice, Notice } from './ui/Notice';
import { ScreenLoader } from './ui/ScreenLoader';

const SetupScreen = lazy(() => import('./features/setup/SetupScreen'));
const PatientScreen = lazy(() => import('./features/patient/PatientScreen'));
const WorkflowScreen = lazy(() => import('./features/workflow/WorkflowScreen'));
const NewEmergencyScreen = lazy(() => import('./features/emergency/NewEmergencyScreen'));
const WorkScreen = lazy(() => import('./features/work/WorkScreen'));
const ActivityScreen = lazy(() => import('./features/activity/ActivityScreen'));
const SettingsScreen = lazy(() => import('./features/settings/SettingsScreen'));
const BedsScreen = lazy(() => import('./features/programmes/BedsScreen'));
const ClaimsScreen = lazy(() => import('./features/claims/ClaimsScreen'));
const PharmacyScreen = lazy(() => import('./features/prescriptions/PharmacyScreen'));

/** SHA's answers arrive by the station's own polls: the queue is read at least this often. */
const QUEUE_EVERY_MS = 60_000;

export function App({ connected }: { readonly connected: boolean }) {
  const { t } = useTranslation();
  const phase = useStation((s) => s.phase);
  // While locked the settings are not the window's to read: the status carries the language.
  const language = useStation((s) => s.settings?.language ?? s.status?.language);
  const trainingMode = useStation((s) => s.status?.trainingMode ?? s.settings?.trainingMode ?? false);
  const locked = useStation((s) => s.locked);
  const connection = useStation((s) => s.connection);
  const working = connected && phase === 'ready' && !locked;

  useEffect(() => {
    if (language !== undefined) void switchLanguage(language);
  }, [language]);

  useEffect(() => {
    // Only the nurse's own input: an event a script dispatched (isTrusted false) is nobody at the keyboard.
    const onActivity = (event: Event) => {
      if (event.isTrusted) reportActivity(Date.now());
    };
    window.addEventListener('keydown', onActivity, { passive: true });
    window.addEventListener('pointerdown', onActivity, { passive: true });
    return () => {
      window.removeEventListener('keydown', onActivity);
      window.removeEventListener('pointerdown', onActivity);
    };
  }, []);

  useEffect(() => {
    if (!working) return undefined;
    void refreshQueue();
    void refreshClaims();
    const timer = setInterval(() => void refreshQueue(), QUEUE_EVERY_MS);
    const unsubscribe = subscribe((event) => {
      if (event.type === 'workflow.updated') {
        queueMayHaveChanged();
        if (event.view.kind === 'visit' || event.view.kind === 'emergency') claimsMayHaveChanged();
      }
    });
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  }, [working]);

  if (!connected) {
    return (
      <main className="standalone">
        <h1>{t('app.name')}</h1>
        <Notice tone="warn" title={t('app.noLink.title')}>
          <p>{t('app.noLink.body')}</p>
        </Notice>
      </main>
    );
  }

  return (
    <div className={`app${trainingMode ? ' app-training' : ''}`}>
      <a className="skip" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="app-header">
        {trainingMode && (
          <div className="training-stripe">
            <strong>{t('app.training.title')}</strong> {t('app.training.body')}
          </div>
        )}
        <TopBar />
        {connection === 'reconnecting' && (
          <div className="banner banner-warn" role="alert">
            {t('app.connection.reconnecting')}
          </div>
        )}
        {connection === 'refused' && (
          <div className="banner banner-bad" role="alert">
            {t('app.connection.refused')}
          </div>
        )}
        {working && <AnswerNotice />}
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {locked ? <LockScreen /> : <Body phase={phase} />}
      </main>
      <div className="actionbar-slot" ref={actionBarSlot} />
      <StatusBar />
    </div>
  );
}

function Body({ phase }: { readonly phase: 'starting' | 'ready' | 'failed' }) {
  const { t } = useTranslation();
  const route = useNavigation((s) => s.route);
  const bootError = useStation((s) => s.bootError);
  if (phase === 'starting') return <p className="loading">{t('common.loading')}</p>;
  if (phase === 'failed' && bootError !== null) {
    return (
      <div className="screen">
        <h1>{t('app.bootFailed')}</h1>
        <ErrorNotice error={bootError}>
          <Button tone="primary" onClick={() => void loadAll()}>
            {t('common.tryAgain')}
          </Button>
        </ErrorNotice>
      </div>
    );
  }
  return (
    <ScreenLoader route={route.name}>
      <RouteView route={route} />
    </ScreenLoader>
  );
}

function RouteView({ route }: { readonly route: Route }) {
  switch (route.name) {
    case 'setup':
      return <SetupScreen />;
    case 'lookup':
      return <LookupScreen />;
    case 'patient':
      return <PatientScreen />;
    case 'workflow':
      return <WorkflowScreen key={route.workflowId} workflowId={route.workflowId} />;
    case 'emergency-new':
      return <NewEmergencyScreen />;
    case 'work':
      return <WorkScreen />;
    case 'activity':
      return <ActivityScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'beds':
      return <BedsScreen />;
    case 'claims':
      return <ClaimsScreen />;
    case 'pharmacy':
      return <PharmacyScreen />;
  }
}
