// First run: training mode on the built-in sandbox is preselected and clearly marked; a real
// facility enters its exchange address, facility code, biometrics agent and credentials. The
// client secret goes to the station once, on sign-in, and never comes back.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { loadAll, useStation } from '../../state/station-store';
import { Button } from '../../ui/Button';
import { Checkbox, RadioGroup, SelectField, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { trainingAgentNationalId, trainingFacilities } from './trainingFacilities';

type ServiceType = 'OUTPATIENT' | 'INPATIENT';

export default function SetupScreen() {
  const { t, i18n } = useTranslation();
  const settings = useStation((s) => s.settings);
  const [training, setTraining] = useState(settings?.trainingMode ?? true);
  const [demo, setDemo] = useState<string>('hospital');
  const [exchangeUrl, setExchangeUrl] = useState(settings?.exchangeBaseUrl ?? '');
  const [facilityCode, setFacilityCode] = useState(settings?.facilityCode ?? '');
  const [facilityName, setFacilityName] = useState(settings?.facilityName ?? '');
  const [agentId, setAgentId] = useState(settings?.agentNationalId ?? '');
  const [clientId, setClientId] = useState(settings?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [serviceType, setServiceType] = useState<ServiceType>(settings?.defaultServiceType ?? 'OUTPATIENT');
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);

  const fieldError = (field: string) => (error?.code === 'VALIDATION' && error.details?.field === field ? error.message : undefined);

  const save = async () => {
    setBusy(true);
    setError(null);
    const preset = trainingFacilities.find((f) => f.key === demo) ?? trainingFacilities[0];
    const update = training
      ? { trainingMode: true, facilityCode: preset.facilityCode, facilityName: preset.facilityName, agentNationalId: agentId.trim() || trainingAgentNationalId }
      : { trainingMode: false, exchangeBaseUrl: exchangeUrl.trim(), facilityCode: facilityCode.trim(), facilityName: facilityName.trim(), agentNationalId: agentId.trim() };
    const saved = await call('settings.update', { ...update, defaultServiceType: serviceType, language: i18n.language === 'sw' ? 'sw' : 'en' });
    if (!saved.ok) {
      setBusy(false);
      setError(saved.error);
      return;
    }
    const credentials = training ? { clientId: preset.clientId, clientSecret: preset.clientSecret } : { clientId: clientId.trim(), clientSecret };
    const signedIn = await call('facility.signIn', credentials);
    setBusy(false);
    if (!signedIn.ok) {
      setError(signedIn.error);
      return;
    }
    setClientSecret('');
    await loadAll();
    go({ name: 'lookup' });
  };

  return (
    <Screen title={t('setup.title')}>
      <p>{t('setup.intro')}</p>
      <form
        className="setup"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div className={training ? 'notice notice-training' : 'notice notice-info'}>
          <Checkbox label={t('setup.training')} hint={t('setup.trainingHint')} checked={training} onChange={(event) => setTraining(event.target.checked)} />
        </div>
        {training ? (
          <>
            <RadioGroup
              legend={t('setup.demoFacility')}
              name="demo-facility"
              value={demo}
              onChange={setDemo}
              choices={trainingFacilities.map((f) => ({ value: f.key, label: f.facilityName, hint: t(`setup.demo.${f.key}`) }))}
            />
          </>
        ) : (
          <>
            <Notice tone="warn">{t('setup.realWarning')}</Notice>
            <TextField label={t('settings.exchangeUrl')} type="url" value={exchangeUrl} onChange={(e) => setExchangeUrl(e.target.value)} required error={fieldError('exchangeBaseUrl')} />
            <div className="row">
              <TextField label={t('settings.facilityCode')} value={facilityCode} onChange={(e) => setFacilityCode(e.target.value)} required error={fieldError('facilityCode')} />
              <TextField label={t('settings.facilityName')} value={facilityName} onChange={(e) => setFacilityName(e.target.value)} required error={fieldError('facilityName')} />
            </div>
            <div className="row">
              <TextField label={t('setup.clientId')} value={clientId} onChange={(e) => setClientId(e.target.value)} required autoComplete="off" />
              <TextField label={t('setup.clientSecret')} type="password" value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} required autoComplete="off" />
            </div>
          </>
        )}
        <div className="row">
          <TextField
            label={t('settings.agent')}
            value={agentId}
            onChange={(e) => setAgentId(e.target.value)}
            inputMode="numeric"
            hint={training ? t('setup.agentTrainingHint') : t('settings.agentHint')}
            required={!training}
            error={fieldError('agentNationalId')}
          />
          <SelectField
            label={t('settings.serviceType')}
            value={serviceType}
            onChange={(e) => setServiceType(e.target.value as ServiceType)}
            choices={(['OUTPATIENT', 'INPATIENT'] as const).map((value) => ({ value, label: t(`serviceType.${value}`) }))}
          />
        </div>
        {error !== null && <ErrorNotice error={error} onRetry={() => void save()} retryBusy={busy} />}
        <Button type="submit" tone="primary" wide busy={busy}>
          {t('setup.save')}
        </Button>
      </form>
    </Screen>
  );
}
