// The preauthorization's corrections and the payer's questions (issue 14): a request SHA holds as a
// draft or has still to send on to the doctor says so and what to do; a request that never
// reached the doctor (DOCTOR_REQUEST_FAILED) is not the end — it says so and what to do, and the
// request is sent again from the preauth panel; a clarification shows the payer's note and what to
// do; a diagnosis is removed, or another requesting doctor named, while the doctor has not approved yet.
import { useTranslation } from 'react-i18next';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { ChangeDoctorForm } from './ChangeDoctorForm';

type ElectiveView = ViewOf<'elective'>;

export function PreauthCorrections({ view }: { readonly view: ElectiveView }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[view.workflowId]) === 'elective.removeDiagnosis';
  const preauth = view.preauth;
  if (preauth === null) return null;
  return (
    <>
      {preauth.status === 'DOCTOR_REQUEST_FAILED' && (
        <Notice tone="warn" title={t('corrections.preauth.doctorFailedTitle')} alert>
          <p>{t('corrections.preauth.doctorFailedBody')}</p>
        </Notice>
      )}
      {(preauth.status === 'DRAFT' || preauth.status === 'PENDING_SUBMISSION') && (
        <Notice tone="info" title={t(`preauthNotSent.${preauth.status}.title`)}>
          <p>
            <strong>{t('preauthNotSent.meaning')}:</strong> {t(`preauthNotSent.${preauth.status}.meaning`)}
          </p>
          <p>
            <strong>{t('preauthNotSent.todo')}:</strong> {t(`preauthNotSent.${preauth.status}.todo`)}
          </p>
        </Notice>
      )}
      {preauth.status === 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS' && (
        <Notice tone="warn" title={t('corrections.preauth.clarificationTitle')} alert>
          {preauth.payerNote !== null ? (
            <p>
              <strong>{t('errors.exchangeReason')}</strong> {preauth.payerNote}
            </p>
          ) : (
            <p>{t('corrections.preauth.clarificationNoNote')}</p>
          )}
          <p>{t('corrections.preauth.clarificationBody')}</p>
        </Notice>
      )}
      {preauth.diagnoses.length > 0 && (
        <section className="panel" aria-labelledby="preauth-diagnoses-title">
          <h2 id="preauth-diagnoses-title">{t('corrections.preauth.diagnosesTitle')}</h2>
          {view.next.includes('elective.removeDiagnosis') && <p className="muted">{t('corrections.preauth.diagnosesExplain')}</p>}
          <ul className="chips">
            {preauth.diagnoses.map((d) => (
              <li key={d.code}>
                <span>{d.code}</span>{' '}
                {view.next.includes('elective.removeDiagnosis') && (
                  <Button
                    tone="quiet"
                    busy={pending}
                    aria-label={t('corrections.diagnoses.removeNamed', { code: d.code })}
                    onClick={() => void run(view.workflowId, 'elective.removeDiagnosis', { workflowId: view.workflowId, code: d.code })}
                  >
                    {t('visit.lines.remove')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.next.includes('elective.changeDoctor') && <ChangeRequestingDoctor view={view} />}
    </>
  );
}

/** Another requesting doctor: SHA adds none to a preauth, so the station cancels it and sends it again naming them. */
function ChangeRequestingDoctor({ view }: { readonly view: ElectiveView }) {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="preauth-doctor-title">
      <h2 id="preauth-doctor-title">{t('corrections.preauth.doctorTitle')}</h2>
      <ChangeDoctorForm workflowId={view.workflowId} command="elective.changeDoctor" explain={t('corrections.preauth.doctorExplain')} submitLabel={t('corrections.preauth.changeDoctor')} />
    </section>
  );
}
