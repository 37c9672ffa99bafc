// An emergency claim after its creation (issue 14), inside its 24 hours: the end of the window as a
// clock time beside the countdown, a further protocol of the same intervention at its tariff, and
// another attending doctor (SHA's one doctor removed first, the new one asked for approval).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { ChangeDoctorForm } from './ChangeDoctorForm';

type EmergencyView = ViewOf<'emergency'>;
type EmergencyProtocol = CommandOutput<'emergency.protocols'>['items'][number];

/** "Submit by 14:32 on 26 Nov": the clock time the 24 hours end, beside the time left. */
export function SubmitByLine({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (view.submitBy === null || view.state === 'submitted' || view.state === 'window-expired') return null;
  return <p className="submit-by">{t('corrections.emergency.submitBy', { time: format.dateTime(view.submitBy) })}</p>;
}

export function EmergencyCorrections({ view }: { readonly view: EmergencyView }) {
  return (
    <>
      {view.next.includes('emergency.addAnotherProtocol') && <AnotherProtocol view={view} />}
      {view.next.includes('emergency.changeDoctor') && <ChangeDoctor view={view} />}
    </>
  );
}

function AnotherProtocol({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const pending = useWorkflows((s) => s.pending[view.workflowId]) === 'emergency.addAnotherProtocol';
  const [protocols, setProtocols] = useState<readonly EmergencyProtocol[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [tried, setTried] = useState(false);
  const interventionCode = view.intervention.code;
  useEffect(() => {
    let current = true;
    void call('emergency.protocols', { interventionCode, pageSize: 200 }).then((answer) => {
      if (current && answer.ok) setProtocols(answer.value.items);
    });
    return () => {
      current = false;
    };
  }, [interventionCode]);
  const onClaim = new Set([view.protocol.protocolCode, ...view.furtherProtocols.map((p) => p.protocolCode)]);
  const offered = (protocols ?? []).filter((p) => !onClaim.has(p.protocolCode));
  return (
    <section className="panel" aria-labelledby="more-protocols-title">
      <h2 id="more-protocols-title">{t('corrections.emergency.protocolsTitle')}</h2>
      <ul>
        {[view.protocol, ...view.furtherProtocols].map((p) => (
          <li key={p.protocolCode}>{t('emergency.protocolLine', { code: p.protocolCode, name: p.name, tariff: format.kes(p.tariffKes) })}</li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (chosen === '') return;
          void run(view.workflowId, 'emergency.addAnotherProtocol', { workflowId: view.workflowId, protocolCode: chosen }).then((answer) => {
            if (!answer.ok) return;
            setChosen('');
            setTried(false);
          });
        }}
      >
        <SelectField
          label={t('corrections.emergency.protocol')}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          hint={protocols === null ? t('corrections.emergency.protocolsLoading') : undefined}
          error={tried && chosen === '' ? t('emergency.protocol.needed') : undefined}
          choices={[{ value: '', label: t('corrections.choose') }, ...offered.map((p) => ({ value: p.protocolCode, label: `${p.protocolCode} · ${p.name} · ${format.kes(p.tariffKes)}` }))]}
        />
        <Button type="submit" busy={pending}>
          {t('corrections.emergency.addProtocol')}
        </Button>
      </form>
    </section>
  );
}

function ChangeDoctor({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="emergency-doctor-title">
      <h2 id="emergency-doctor-title">{t('visit.doctor.title')}</h2>
      <p>
        {t(`doctor.idTypes.${view.doctor.identificationType}`, { defaultValue: view.doctor.identificationType })} {view.doctor.identificationNumber} · {view.doctor.regulationBody}
      </p>
      <ChangeDoctorForm workflowId={view.workflowId} command="emergency.changeDoctor" explain={t('corrections.emergency.doctorExplain')} submitLabel={t('corrections.emergency.changeDoctor')} />
    </section>
  );
}
