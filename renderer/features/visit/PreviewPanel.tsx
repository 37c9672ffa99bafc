// The claim as the exchange will see it: lines, diagnoses, doctor, total, discharge status.
import { useTranslation } from 'react-i18next';
import type { ClaimPreview } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';

export function PreviewPanel({ preview }: { readonly preview: ClaimPreview }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <div className="preview">
      <dl className="facts">
        <div>
          <dt>{t('visit.number')}</dt>
          <dd>{preview.visitNumber ?? t('common.notYet')}</dd>
        </div>
        <div>
          <dt>{t('visit.claimStatus')}</dt>
          <dd>{t(`claimStatus.${preview.claimStatus}`)}</dd>
        </div>
        <div>
          <dt>{t('preview.serviceType')}</dt>
          <dd>{t(`serviceType.${preview.serviceType}`)}</dd>
        </div>
        <div>
          <dt>{t('preview.total')}</dt>
          <dd className="big">{format.kes(preview.totalKes)}</dd>
        </div>
        <div>
          <dt>{t('preview.doctor')}</dt>
          <dd>{preview.doctor === null ? t('preview.noDoctor') : `${preview.doctor.identificationNumber} · ${preview.doctor.regulationBody}`}</dd>
        </div>
        <div>
          <dt>{t('preview.diagnoses')}</dt>
          <dd>{preview.diagnoses.length === 0 ? t('common.none') : preview.diagnoses.map((d) => d.code).join(', ')}</dd>
        </div>
        <div>
          <dt>{t('preview.attachments')}</dt>
          <dd>{format.number(preview.attachmentCount)}</dd>
        </div>
        {preview.dischargeStatus !== null && (
          <div>
            <dt>{t('preview.dischargeStatus')}</dt>
            <dd>{t(`preview.discharge.${preview.dischargeStatus}`)}</dd>
          </div>
        )}
      </dl>
      <p className="muted small">
        {t('preview.lineCount', { count: preview.lines.length })} · {t('preview.asOf', { time: format.dateTime(preview.previewedAt) })}
      </p>
    </div>
  );
}
