// The documents sent with a preauthorization request: the types SHA requires for the intervention
// offered first and those still missing named before the request is sent; at most ten, within the
// station's limit for one command together. They go with the request (and wait on the station,
// sealed, until SHA has them); the view says when they were lost there and must be attached again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import type { ViewOf } from '../../state/workflows';
import { Notice } from '../../ui/Notice';
import { DocumentPicker, type ChosenDocument } from '../claims/DocumentPicker';
import { knownIntervention, useServices } from '../services/store';
import { ChosenPapers } from '../shared/ChosenPapers';
import { documentTypes, typesWords } from '../shared/documents';
import { heldPaperRefusal, MAX_BYTES_TOGETHER } from '../shared/heldPapers';

/** The preauth's limit on attachments (the client's and the sandbox's). */
const MAX_PAPERS = 10;

/** The titles of the request's documents, in one sentence. */
export function paperTitles(view: ViewOf<'elective'>, locale: string): string {
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(view.preauthDocuments.attached.map((d) => d.title));
}

export function PreauthPapers({
  view,
  papers,
  onChange,
}: {
  readonly view: ViewOf<'elective'>;
  readonly papers: readonly ChosenDocument[];
  readonly onChange: (papers: ChosenDocument[]) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [problem, setProblem] = useState<string | null>(null);
  const required = useServices((s) => knownIntervention(s, view.patient.patientRef, view.intervention.code)?.preauthDocuments ?? null);
  const listed = required === null ? null : documentTypes.filter((d) => required.includes(d));
  const missing = (listed ?? []).filter((d) => !papers.some((p) => p.documentType === d));
  const gone = view.preauthDocuments.gone;

  const add = (paper: ChosenDocument): Promise<boolean> => {
    const refusal = heldPaperRefusal(papers, paper, MAX_PAPERS);
    setProblem(refusal === 'too-many' ? t('preauthPapers.tooMany', { count: MAX_PAPERS }) : refusal === 'too-big' ? t('preauthPapers.tooMuch', { limit: format.bytes(MAX_BYTES_TOGETHER, 'down') }) : null);
    if (refusal === null) onChange([...papers, paper]);
    return Promise.resolve(refusal === null);
  };

  return (
    <section className="request-papers" aria-labelledby={`papers-${view.workflowId}`}>
      <h3 id={`papers-${view.workflowId}`}>{t('preauthPapers.title')}</h3>
      <p className="muted">{t('preauthPapers.explain')}</p>
      {/* The error above says what happened; this names what to attach again. */}
      {gone && <Notice tone="warn">{t('preauthPapers.gone', { names: paperTitles(view, format.locale) })}</Notice>}
      {listed !== null && listed.length > 0 && <p>{t('preauthPapers.listed', { types: typesWords(t, listed, format.locale) })}</p>}
      <ChosenPapers papers={papers} onRemove={(index) => onChange(papers.filter((_, n) => n !== index))} />
      {missing.length > 0 && <Notice tone="warn">{t('preauthPapers.missing', { types: typesWords(t, missing, format.locale) })}</Notice>}
      {problem !== null && <Notice tone="bad">{problem}</Notice>}
      <DocumentPicker listed={listed} busy={false} attachLabel={t('preauthPapers.add')} onAttach={add} />
    </section>
  );
}
