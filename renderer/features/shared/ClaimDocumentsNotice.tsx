// Before a claim is submitted: the document types SHA lists for the service that are not on the
// claim yet, named, with the way to the claim's documents. It blocks nothing (SHA decides what it
// requires) and says nothing when the claim has them all or SHA does not say.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClaimDetail } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { typesWords } from './documents';

export function ClaimDocumentsNotice({ workflowId }: { readonly workflowId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [claim, setClaim] = useState<ClaimDetail | null>(null);
  useEffect(() => {
    let current = true;
    void call('claims.get', { workflowId }).then((answer) => {
      if (current && answer.ok) setClaim(answer.value);
    });
    return () => {
      current = false;
    };
  }, [workflowId]);
  if (claim === null || claim.documentTypes.missing.length === 0) return null;
  return (
    <Notice tone="info" title={t('claims.beforeSubmit.title')}>
      <p>{t('claims.beforeSubmit.body', { types: typesWords(t, claim.documentTypes.missing, format.locale) })}</p>
      <Button onClick={() => go({ name: 'claims', workflowId })}>{t('claims.beforeSubmit.open')}</Button>
    </Notice>
  );
}
