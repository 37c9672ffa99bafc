// Settings: the facility's sign-in, the station's editable settings, the staff (the administrator
// only), the readers found, and what the station reports about itself (host, versions, native
// pieces that could not load). What decides where secrets go — the exchange, the facility, the link
// origins, training mode, the lock time — is the administrator's: for anyone else those fields are
// read-only, and the station refuses them anyway. What the provisioning file fixes is read-only to all.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput, CommandOutput, StationError } from '../../bridge/types';
import { switchLanguage } from '../../i18n';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { loadAll, refreshReaders, settingsChanged, useStation } from '../../state/station-store';
import { ActionBar } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, TextArea, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';

type Update = CommandInput<'settings.update'>;
type StaffMember = CommandOutput<'staff.list'>['items'][number];
const trainingFacilityFields = new Set(['facilityCode', 'facilityName', 'agentNationalId']);
type Reader = CommandOutput<'readers.list'>['items'][number];
type Session = CommandOutput<'facility.signIn'>;
const sources = ['auto', 'hardware-service', 'station-reader', 'virtual'] as const;

/** Where the terminology keeps one kind of concept: both left empty means the facility was given none. */
function conceptSource(owner: string, source: string): { owner: string; source: string } | null {
  return owner.trim() === '' && source.trim() === '' ? null : { owner: owner.trim(), source: source.trim() };
}

export default function SettingsScreen() {
  const { t } = useTranslation();
  const settings = useStation((s) => s.settings);
  const status = useStation((s) => s.status);
  if (settings === null) return null;
  return (
    <Screen title={t('settings.title')}>
      <div className="settings-grid">
        <SettingsForm key={JSON.stringify(settings)} />
        <div>
          <SignInPanel />
          {status?.staff?.role === 'administrator' && <StaffPanel />}
          <ReadersPanel />
          {status !== null && (
            <section className="panel" aria-labelledby="about-title">
              <h2 id="about-title">{t('settings.about')}</h2>
              <dl className="facts">
                <div>
                  <dt>{t('settings.host')}</dt>
                  <dd>{t(`settings.hosts.${status.host}`)}</dd>
                </div>
                <div>
                  <dt>{t('settings.version')}</dt>
                  <dd>
                    {status.appVersion} · {t('settings.contract', { version: status.contractVersion })}
                  </dd>
                </div>
              </dl>
              {status.setAside.count > 0 && <SetAsideNotice setAside={status.setAside} />}
              {status.unavailablePieces.length > 0 && (
                <Notice tone="warn" title={t('settings.unavailable')}>
                  <ul>
                    {status.unavailablePieces.map((piece) => (
                      <li key={piece.piece}>
                        <strong>{piece.piece}</strong>: {piece.reason}
                      </li>
                    ))}
                  </ul>
                </Notice>
              )}
            </section>
          )}
        </div>
      </div>
    </Screen>
  );
}

/** For the IT officer: which records the station set aside, why, and what brings them back. */
function SetAsideNotice({ setAside }: { setAside: CommandOutput<'station.status'>['setAside'] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Notice tone="warn" title={t('settings.setAside.title')}>
      <p>{t('settings.setAside.explain')}</p>
      <ul>
        {setAside.records.map((r) => (
          <li key={`${r.source}:${r.key}`}>
            {t('settings.setAside.record', {
              what: r.source === 'workflow' && r.kind !== null ? t(`work.kind.${r.kind}`, { defaultValue: t('settings.setAside.source.workflow') }) : t(`settings.setAside.source.${r.source}`),
              key: r.key,
              reason: t(`settings.setAside.reason.${r.reason}`),
              when: format.dateTime(r.foundAt),
            })}
          </li>
        ))}
      </ul>
      {setAside.count > setAside.records.length && <p>{t('settings.setAside.more', { count: setAside.count - setAside.records.length })}</p>}
    </Notice>
  );
}

function SettingsForm() {
  const { t } = useTranslation();
  const settings = useStation((s) => s.settings);
  const administrator = useStation((s) => s.status?.staff?.role === 'administrator');
  const provisioned = new Set<string>(settings?.provisioned ?? []);
  // The demo facility's identity is chosen by anyone in training (the first-run screen); the rest is the administrator's.
  const locked = (field: string) => provisioned.has(field) || (!administrator && !(settings?.trainingMode === true && trainingFacilityFields.has(field)));
  const [draft, setDraft] = useState(() => ({
    trainingMode: settings?.trainingMode ?? true,
    exchangeBaseUrl: settings?.exchangeBaseUrl ?? '',
    facilityCode: settings?.facilityCode ?? '',
    facilityName: settings?.facilityName ?? '',
    agentNationalId: settings?.agentNationalId ?? '',
    allowedLinkOrigins: (settings?.allowedLinkOrigins ?? []).join('\n'),
    language: settings?.language ?? 'en',
    idleLockMinutes: String(settings?.idleLockMinutes ?? 5),
    source: settings?.reader.source ?? 'auto',
    readerId: settings?.reader.readerId ?? '',
    defaultServiceType: settings?.defaultServiceType ?? 'OUTPATIENT',
    stationRole: settings?.stationRole ?? 'ward',
    medicinesOwner: settings?.terminology.medicines?.owner ?? '',
    medicinesSource: settings?.terminology.medicines?.source ?? '',
    diagnosesOwner: settings?.terminology.diagnoses?.owner ?? '',
    diagnosesSource: settings?.terminology.diagnoses?.source ?? '',
    scannerFolder: settings?.scannerFolder ?? '',
  }));
  const [readers, setReaders] = useState<readonly Reader[]>([]);
  const [error, setError] = useState<StationError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void call('readers.list', {}).then((answer) => answer.ok && setReaders(answer.value.items));
  }, []);

  const change = <K extends keyof typeof draft>(key: K, value: (typeof draft)[K]) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const fieldError = (field: string) => (error?.code === 'VALIDATION' && error.details?.field === field ? error.message : undefined);
  const terminologyField = (kind: 'medicines' | 'diagnoses', part: 'owner' | 'source') => ({
    label: t(`medicines.settings.${kind}.${part}`),
    value: draft[`${kind}${part === 'owner' ? 'Owner' : 'Source'}`],
    readOnly: locked('terminology'),
    onChange: (e: { target: { value: string } }) => change(`${kind}${part === 'owner' ? 'Owner' : 'Source'}`, e.target.value),
    error: fieldError(`terminology.${kind}.${part}`) ?? fieldError(`terminology.${kind}`),
    autoComplete: 'off',
  });

  const save = async () => {
    setBusy(true);
    const update: Update = {
      trainingMode: draft.trainingMode,
      allowedLinkOrigins: draft.allowedLinkOrigins.split(/\s+/).filter(Boolean),
      language: draft.language,
      idleLockMinutes: Number(draft.idleLockMinutes),
      reader: { source: draft.source, readerId: draft.readerId === '' ? null : draft.readerId },
      defaultServiceType: draft.defaultServiceType,
      stationRole: draft.stationRole,
      terminology: { medicines: conceptSource(draft.medicinesOwner, draft.medicinesSource), diagnoses: conceptSource(draft.diagnosesOwner, draft.diagnosesSource) },
      scannerFolder: draft.scannerFolder.trim() === '' ? null : draft.scannerFolder.trim(),
      ...(draft.exchangeBaseUrl.trim() === '' ? {} : { exchangeBaseUrl: draft.exchangeBaseUrl.trim() }),
      ...(draft.facilityCode.trim() === '' ? {} : { facilityCode: draft.facilityCode.trim() }),
      ...(draft.facilityName.trim() === '' ? {} : { facilityName: draft.facilityName.trim() }),
      ...(draft.agentNationalId.trim() === '' ? {} : { agentNationalId: draft.agentNationalId.trim() }),
    };
    const answer = await call('settings.update', update);
    setBusy(false);
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    setError(null);
    setSaved(true);
    settingsChanged(answer.value);
    await switchLanguage(answer.value.language);
  };

  return (
    <form
      id="station-settings"
      className="panel"
      aria-labelledby="station-settings-title"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 id="station-settings-title">{t('settings.station')}</h2>
      {!administrator && <Notice tone="info">{t('settings.adminOnly')}</Notice>}
      {provisioned.size > 0 && <Notice tone="info">{t('settings.provisioned', { fields: [...provisioned].join(', ') })}</Notice>}
      <div className={draft.trainingMode ? 'notice notice-training' : 'notice notice-info'}>
        <Checkbox label={t('setup.training')} hint={t('settings.trainingHint')} checked={draft.trainingMode} disabled={locked('trainingMode')} onChange={(e) => change('trainingMode', e.target.checked)} />
      </div>
      <TextField label={t('settings.exchangeUrl')} type="url" value={draft.exchangeBaseUrl} readOnly={locked('exchangeBaseUrl')} onChange={(e) => change('exchangeBaseUrl', e.target.value)} error={fieldError('exchangeBaseUrl')} />
      <div className="row">
        <TextField label={t('settings.facilityCode')} value={draft.facilityCode} readOnly={locked('facilityCode')} onChange={(e) => change('facilityCode', e.target.value)} error={fieldError('facilityCode')} />
        <TextField label={t('settings.facilityName')} value={draft.facilityName} readOnly={locked('facilityName')} onChange={(e) => change('facilityName', e.target.value)} error={fieldError('facilityName')} />
      </div>
      <div className="row">
        <TextField
          label={t('settings.agent')}
          value={draft.agentNationalId}
          readOnly={locked('agentNationalId')}
          onChange={(e) => change('agentNationalId', e.target.value)}
          inputMode="numeric"
          hint={t('settings.agentHint')}
          error={fieldError('agentNationalId')}
        />
        <TextField
          label={t('settings.idleLock')}
          type="number"
          min={1}
          max={240}
          value={draft.idleLockMinutes}
          readOnly={locked('idleLockMinutes')}
          onChange={(e) => change('idleLockMinutes', e.target.value)}
          error={fieldError('idleLockMinutes')}
        />
      </div>
      <div className="row">
        <SelectField
          label={t('settings.language')}
          value={draft.language}
          onChange={(e) => change('language', e.target.value === 'sw' ? 'sw' : 'en')}
          choices={[
            { value: 'en', label: 'English' },
            { value: 'sw', label: 'Kiswahili' },
          ]}
        />
        <SelectField
          label={t('settings.serviceType')}
          value={draft.defaultServiceType}
          onChange={(e) => change('defaultServiceType', e.target.value === 'INPATIENT' ? 'INPATIENT' : 'OUTPATIENT')}
          choices={(['OUTPATIENT', 'INPATIENT'] as const).map((value) => ({ value, label: t(`serviceType.${value}`) }))}
        />
        <SelectField
          label={t('pharmacy.role')}
          value={draft.stationRole}
          disabled={locked('stationRole')}
          onChange={(e) => change('stationRole', e.target.value === 'pharmacy' ? 'pharmacy' : 'ward')}
          error={fieldError('stationRole')}
          choices={(['ward', 'pharmacy'] as const).map((value) => ({ value, label: t(`pharmacy.roles.${value}`) }))}
        />
      </div>
      <div className="row">
        <SelectField
          label={t('settings.readerSource')}
          value={draft.source}
          onChange={(e) => change('source', e.target.value as (typeof sources)[number])}
          choices={sources.map((value) => ({ value, label: t(`settings.sources.${value}`) }))}
        />
        <SelectField
          label={t('settings.reader')}
          value={draft.readerId}
          onChange={(e) => change('readerId', e.target.value)}
          choices={[{ value: '', label: t('settings.anyReader') }, ...readers.map((r) => ({ value: r.readerId, label: `${r.label}${r.path === null ? '' : ` (${r.path})`}` }))]}
        />
      </div>
      <fieldset className="terminology-settings">
        <legend>{t('medicines.settings.title')}</legend>
        <p className="muted small">{t('medicines.settings.intro')}</p>
        {(['medicines', 'diagnoses'] as const).map((kind) => (
          <div className="row" key={kind}>
            <TextField {...terminologyField(kind, 'owner')} />
            <TextField {...terminologyField(kind, 'source')} />
          </div>
        ))}
      </fieldset>
      <TextField
        label={t('scannerFolder.setting')}
        hint={t('scannerFolder.settingHint')}
        value={draft.scannerFolder}
        readOnly={locked('scannerFolder')}
        onChange={(e) => change('scannerFolder', e.target.value)}
        error={fieldError('scannerFolder')}
        spellCheck={false}
      />
      <TextArea
        label={t('settings.origins')}
        hint={t('settings.originsHint')}
        readOnly={locked('allowedLinkOrigins')}
        value={draft.allowedLinkOrigins}
        onChange={(e) => change('allowedLinkOrigins', e.target.value)}
        error={fieldError('allowedLinkOrigins') ?? (error?.details?.field?.startsWith('allowedLinkOrigins') ? error.message : undefined)}
      />
      {error !== null && error.code !== 'VALIDATION' && <ErrorNotice error={error} />}
      <ActionBar note={saved ? <p>{t('settings.saved')}</p> : undefined}>
        <Button type="submit" form="station-settings" tone="primary" busy={busy}>
          {t('settings.save')}
        </Button>
      </ActionBar>
    </form>
  );
}

function SignInPanel() {
  const { t } = useTranslation();
  const format = useFormat();
  const status = useStation((s) => s.status);
  const settings = useStation((s) => s.settings);
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState<'in' | 'out' | null>(null);

  const signIn = async () => {
    setBusy('in');
    const answer = await call('facility.signIn', {});
    setBusy(null);
    if (answer.ok) {
      setSession(answer.value);
      setError(null);
      await loadAll();
    } else setError(answer.error);
  };
  const signOut = async (forgetCredentials: boolean) => {
    setBusy('out');
    const answer = await call('facility.signOut', { forgetCredentials });
    setBusy(null);
    if (answer.ok) {
      setSession(answer.value);
      await loadAll();
    } else setError(answer.error);
  };
  const signedIn = session?.signedIn ?? status?.signedIn ?? false;
  return (
    <section className="panel" aria-labelledby="signin-title">
      <h2 id="signin-title">{t('settings.signIn.title')}</h2>
      <p>
        {signedIn ? t('settings.signIn.in', { facility: status?.facility?.name ?? settings?.facilityName ?? '' }) : t('settings.signIn.out')}
        {session?.signedInAt ? ` · ${format.dateTime(session.signedInAt)}` : ''}
      </p>
      <p className="muted small">{settings?.credentialsStored ? t('settings.signIn.stored', { clientId: settings.clientId ?? '' }) : t('settings.signIn.notStored')}</p>
      {error !== null && <ErrorNotice error={error} onRetry={() => void signIn()} />}
      <div className="actions">
        <Button tone="primary" busy={busy === 'in'} disabled={!settings?.credentialsStored} onClick={() => void signIn()}>
          {t('settings.signIn.again')}
        </Button>
        <Button busy={busy === 'out'} onClick={() => void signOut(false)}>
          {t('settings.signIn.signOut')}
        </Button>
        <Button tone="danger" busy={busy === 'out'} onClick={() => void signOut(true)}>
          {t('settings.signIn.forget')}
        </Button>
      </div>
    </section>
  );
}

/**
 * The administrator's list of who may sign in, with adding, a new PIN and removing those added here.
 * Each member's PIN is marked when it is shorter than new PINs may be (it works until it is changed).
 * Making an administrator, or giving one a new PIN, takes the administrator's own PIN again.
 */
function StaffPanel() {
  const { t } = useTranslation();
  const [items, setItems] = useState<readonly StaffMember[]>([]);
  const [draft, setDraft] = useState({ name: '', role: 'nurse' as StaffMember['role'], pin: '', nationalId: '', administratorPin: '' });
  const [error, setError] = useState<StationError | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [changing, setChanging] = useState<StaffMember | null>(null);
  useEffect(() => {
    void call('staff.list', {}).then((answer) => (answer.ok ? setItems(answer.value.items) : setError(answer.error)));
  }, []);
  const add = async () => {
    setBusy(true);
    const answer = await call('staff.add', {
      name: draft.name.trim(),
      role: draft.role,
      pin: draft.pin,
      ...(draft.nationalId.trim() === '' ? {} : { nationalId: draft.nationalId.trim() }),
      ...(draft.role === 'administrator' ? { administratorPin: draft.administratorPin } : {}),
    });
    setBusy(false);
    setDraft((d) => ({ ...d, administratorPin: '' }));
    if (!answer.ok) return setError(answer.error);
    setError(null);
    setAdded(answer.value.name);
    setDraft({ name: '', role: 'nurse', pin: '', nationalId: '', administratorPin: '' });
    const list = await call('staff.list', {});
    if (list.ok) setItems(list.value.items);
  };
  const remove = async (member: StaffMember) => {
    const answer = await call('staff.remove', { staffRef: member.staffRef });
    if (answer.ok) setItems(answer.value.items);
    else setError(answer.error);
  };
  const fieldError = (field: string) => (error?.code === 'VALIDATION' && error.details?.field === field ? error.message : undefined);
  return (
    <section className="panel" aria-labelledby="staff-title">
      <h2 id="staff-title">{t('settings.staff.title')}</h2>
      <p className="muted small">{t('settings.staff.intro')}</p>
      <ul className="reader-lines">
        {items.map((member) => (
          <li key={member.staffRef}>
            <strong>{member.name}</strong> · {t(`settings.staff.roles.${member.role}`)} · {t(`settings.staff.source.${member.source}`)}
            {member.pin !== 'ok' && member.source !== 'training' && (
              <>
                {' · '}
                <span className={member.pin === 'short' ? 'warn-text' : 'muted'}>{t(`settings.staff.pinState.${member.pin}`)}</span>
              </>
            )}{' '}
            {member.source === 'station' && (
              <>
                <Button onClick={() => setChanging(member)}>{t('settings.staff.newPin', { name: member.name })}</Button>{' '}
                <Button tone="danger" onClick={() => void remove(member)}>
                  {t('settings.staff.remove', { name: member.name })}
                </Button>
              </>
            )}
            {changing?.staffRef === member.staffRef && (
              <NewPinForm
                member={member}
                onDone={(list) => {
                  setChanging(null);
                  if (list !== null) setItems(list);
                }}
              />
            )}
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <div className="row">
          <TextField label={t('settings.staff.name')} value={draft.name} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} required autoComplete="off" />
          <SelectField
            label={t('settings.staff.role')}
            value={draft.role}
            onChange={(e) => setDraft((d) => ({ ...d, role: e.target.value === 'administrator' ? 'administrator' : 'nurse' }))}
            choices={(['nurse', 'administrator'] as const).map((value) => ({ value, label: t(`settings.staff.roles.${value}`) }))}
          />
        </div>
        <div className="row">
          <TextField
            label={t('settings.staff.pin')}
            hint={t('settings.staff.pinHint')}
            type="password"
            value={draft.pin}
            onChange={(e) => setDraft((d) => ({ ...d, pin: e.target.value }))}
            required
            autoComplete="off"
            error={fieldError('pin')}
          />
          <TextField label={t('settings.staff.nationalId')} inputMode="numeric" value={draft.nationalId} onChange={(e) => setDraft((d) => ({ ...d, nationalId: e.target.value }))} error={fieldError('nationalId')} />
        </div>
        {draft.role === 'administrator' && (
          <TextField
            label={t('settings.staff.yourPin')}
            type="password"
            value={draft.administratorPin}
            onChange={(e) => setDraft((d) => ({ ...d, administratorPin: e.target.value }))}
            required
            autoComplete="off"
            error={fieldError('administratorPin')}
          />
        )}
        {error !== null && error.code !== 'VALIDATION' && <ErrorNotice error={error} />}
        {added !== null && <Notice tone="ok">{t('settings.staff.added', { name: added })}</Notice>}
        <Button type="submit" busy={busy}>
          {t('settings.staff.add')}
        </Button>
      </form>
    </section>
  );
}

/** A new PIN for one staff member added here; the administrator's own PIN again when she is an administrator. */
function NewPinForm({ member, onDone }: { readonly member: StaffMember; readonly onDone: (list: readonly StaffMember[] | null) => void }) {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');
  const [administratorPin, setAdministratorPin] = useState('');
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    const answer = await call('staff.setPin', { staffRef: member.staffRef, pin, ...(member.role === 'administrator' ? { administratorPin } : {}) });
    setBusy(false);
    setAdministratorPin('');
    if (!answer.ok) return setError(answer.error);
    onDone(answer.value.items);
  };
  const fieldError = (field: string) => (error?.code === 'VALIDATION' && error.details?.field === field ? error.message : undefined);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="row">
        <TextField
          label={t('settings.staff.newPin', { name: member.name })}
          hint={t('settings.staff.pinHint')}
          type="password"
          value={pin}
          onChange={(e) => setPin(e.target.value)}
          required
          autoComplete="off"
          error={fieldError('pin')}
        />
        {member.role === 'administrator' && (
          <TextField label={t('settings.staff.yourPin')} type="password" value={administratorPin} onChange={(e) => setAdministratorPin(e.target.value)} required autoComplete="off" error={fieldError('administratorPin')} />
        )}
      </div>
      {error !== null && error.code !== 'VALIDATION' && <ErrorNotice error={error} />}
      <Button type="submit" busy={busy}>
        {t('settings.staff.savePin')}
      </Button>{' '}
      <Button onClick={() => onDone(null)}>{t('settings.staff.cancelPin')}</Button>
    </form>
  );
}

function ReadersPanel() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <section className="panel" aria-labelledby="readers-title">
      <h2 id="readers-title">{t('settings.readers')}</h2>
      <ReaderSummary />
      <Button
        busy={busy}
        onClick={() => {
          setBusy(true);
          void refreshReaders(true).then(() => setBusy(false));
        }}
      >
        {t('readers.checkAgain')}
      </Button>
    </section>
  );
}

function ReaderSummary() {
  const { t } = useTranslation();
  const readers = useStation((s) => s.readers);
  if (readers === null) return <p className="muted">{t('readers.unknown')}</p>;
  return (
    <ul className="reader-lines">
      <li>
        <strong>{t('readers.reader')}:</strong> {readers.reader.virtual ? t('readers.virtual') : (readers.reader.label ?? '—')} · {t(`readers.state.${readers.reader.state}`)}
      </li>
      <li>
        <strong>{t('readers.serviceLabel')}:</strong> {t(`readers.service.${readers.hardwareService.state}`)}
        {readers.hardwareService.workstationId !== null && <> · {readers.hardwareService.workstationId}</>}
      </li>
      <li>
        <strong>{t('readers.localLabel')}:</strong> {t(`readers.local.${readers.localDeviceService.state}`)}
      </li>
    </ul>
  );
}
