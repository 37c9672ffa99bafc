// The services on the open visit (issue 22): a ward stay takes a laboratory test or imaging beside
// the ward's own service on the same claim. "Add a service" opens the same picker the first was
// chosen with, and "Add to the visit" adds what was chosen; a service is taken off (SHA deletes its
// billing lines: said, with how many, before the nurse confirms) or put back.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { ErrorNotice } from '../../ui/Notice';
import { InterventionPicker } from '../services/InterventionPicker';
import { loadServices, retryServices, selectedIntervention, useServices } from '../services/store';

type VisitView = ViewOf<'visit'>;
type ServiceOnVisit = NonNullable<VisitView['services']>[number];

/** The services on the visit: those the view lists, or the one it opened for (a core that predates several). */
export function visitServices(view: VisitView): readonly ServiceOnVisit[] {
  return view.services ?? [{ ...view.intervention, active: true }];
}

export function ServicesSection({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const services = visitServices(view);
  const [adding, setAdding] = useState(false);
  const [retiring, setRetiring] = useState<string | null>(null);
  const pending = useWorkflows((s) => s.pending[view.workflowId]);
  const canAdd = view.next.includes('visit.addService');

  const openPicker = () => {
    // The patient's services as the patient screen had them, or asked for again (a visit resumed later).
    if (useServices.getState().patientRef !== view.patient.patientRef) loadServices(view.patient.patientRef, null);
    // The picker starts afresh, no choice and no filter: the visit's own service is on it already.
    useServices.setState({ selected: null, search: '', scenario: '', subBenefitCode: '' });
    setAdding(true);
  };

  return (
    <section className="panel" aria-labelledby="visit-services-title">
      <h2 id="visit-services-title">{t('visit.services.title')}</h2>
      <ul className="visit-services">
        {services.map((service) => (
          <li key={service.code} className={service.active ? undefined : 'retired'}>
            <span>
              <strong>{service.name}</strong> <span className="muted small">{service.code}</span>
              {!service.active && <span className="muted small"> · {t('visit.services.retired')}</span>}
            </span>
            {service.active && view.next.includes('visit.retireService') && retiring !== service.code && (
              <Button tone="quiet" onClick={() => setRetiring(service.code)} aria-label={t('visit.services.retireNamed', { name: service.name })}>
                {t('visit.services.retire')}
              </Button>
            )}
            {!service.active && view.next.includes('visit.restoreService') && (
              <Button
                tone="quiet"
                busy={pending === 'visit.restoreService'}
                aria-label={t('visit.services.restoreNamed', { name: service.name })}
                onClick={() => void run(view.workflowId, 'visit.restoreService', { workflowId: view.workflowId, interventionCode: service.code })}
              >
                {t('visit.services.restore')}
              </Button>
            )}
            {retiring === service.code && <RetireConfirm view={view} service={service} onDone={() => setRetiring(null)} />}
          </li>
        ))}
      </ul>
      {canAdd && !adding && <Button onClick={openPicker}>{t('visit.services.add')}</Button>}
      {canAdd && adding && <AddService view={view} onDone={() => setAdding(false)} />}
    </section>
  );
}

function RetireConfirm({ view, service, onDone }: { readonly view: VisitView; readonly service: ServiceOnVisit; readonly onDone: () => void }) {
  const { t } = useTranslation();
  const busy = useWorkflows((s) => s.pending[view.workflowId]) === 'visit.retireService';
  const lines = view.lines.filter((l) => l.interventionCode === service.code).length;
  return (
    <div className="retire-confirm" role="group" aria-label={t('visit.services.retireNamed', { name: service.name })}>
      <Notice tone="warn">{lines === 0 ? t('visit.services.retireNoLines', { name: service.name }) : t('visit.services.retireWarning', { name: service.name, count: lines })}</Notice>
      <div className="row">
        <Button
          tone="danger"
          busy={busy}
          onClick={() =>
            void run(view.workflowId, 'visit.retireService', { workflowId: view.workflowId, interventionCode: service.code }).then((answer) => {
              if (answer.ok) onDone();
            })
          }
        >
          {t('visit.services.retireConfirm')}
        </Button>
        <Button tone="quiet" onClick={onDone}>
          {t('visit.services.keep')}
        </Button>
      </div>
    </div>
  );
}

function AddService({ view, onDone }: { readonly view: VisitView; readonly onDone: () => void }) {
  const { t } = useTranslation();
  const loading = useServices((s) => s.loading || s.patientRef !== view.patient.patientRef);
  const error = useServices((s) => s.error);
  const chosen = useServices(selectedIntervention);
  const busy = useWorkflows((s) => s.pending[view.workflowId]) === 'visit.addService';
  const [tried, setTried] = useState(false);
  const onVisit = chosen === null ? undefined : visitServices(view).find((s) => s.code === chosen.code);
  const problem = chosen === null ? (tried ? t('visit.services.chooseFirst') : null) : onVisit?.active === true ? t('visit.services.already', { name: chosen.name }) : null;

  return (
    <div className="add-service">
      {loading && <p className="progress">{t('visit.services.loading')}</p>}
      {error !== null && <ErrorNotice error={error} onRetry={retryServices} />}
      {!loading && error === null && <InterventionPicker />}
      {chosen !== null && <p>{t('visit.services.chosen', { name: chosen.name, code: chosen.code })}</p>}
      {problem !== null && <Notice tone="warn">{problem}</Notice>}
      <div className="row">
        <Button
          tone="primary"
          busy={busy}
          onClick={() => {
            setTried(true);
            if (chosen === null || onVisit?.active === true) return;
            void run(view.workflowId, 'visit.addService', { workflowId: view.workflowId, interventionCode: chosen.code }).then((answer) => {
              if (answer.ok) onDone();
            });
          }}
        >
          {t('visit.services.addButton')}
        </Button>
        <Button tone="quiet" onClick={onDone}>
          {t('visit.services.cancel')}
        </Button>
      </div>
    </div>
  );
}
