// The documents chosen for a request that is sent later (a preauthorization, a whitelist request):
// each named with its type and size, removable before sending. Their bytes stay in the form.
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { Button } from '../../ui/Button';
import { typesWords } from './documents';

export interface ChosenPaper {
  readonly documentType?: string;
  readonly title: string;
  readonly fileName: string;
  readonly dataBase64: string;
}

/** The bytes a base64 text carries. */
export const bytesOf = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

export function ChosenPapers({ papers, onRemove }: { readonly papers: readonly ChosenPaper[]; readonly onRemove: (index: number) => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (papers.length === 0) return <p className="muted">{t('preauthPapers.none')}</p>;
  return (
    <ul className="documentlist" aria-label={t('preauthPapers.chosen')}>
      {papers.map((paper, index) => (
        <li key={`${paper.fileName}-${index}`}>
          <span>
            <strong>{paper.title}</strong> · {paper.fileName}
            {paper.documentType === undefined ? '' : ` · ${typesWords(t, [paper.documentType], format.locale)}`} · {format.bytes(bytesOf(paper.dataBase64))}
          </span>
          <Button tone="quiet" aria-label={t('preauthPapers.removeNamed', { name: paper.fileName })} onClick={() => onRemove(index)}>
            {t('preauthPapers.remove')}
          </Button>
        </li>
      ))}
    </ul>
  );
}
