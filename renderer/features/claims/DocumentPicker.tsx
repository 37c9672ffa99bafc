// Attaching a document: its type (those SHA lists for the service first, nothing chosen for the
// nurse), its title, the file from the computer or from the scanner's folder (when the administrator
// set one), checked and previewed before it is sent, then sent by the caller. Reusable wherever a
// document goes to SHA.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { claimDocumentType } from '../../../electron/contract';
import type { z } from 'zod';
import { useFormat } from '../../i18n/format';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { FileField } from '../../ui/FileField';
import { Notice } from '../../ui/Notice';
import { MAX_BYTES, readDocument, type ChosenFile, type FileProblem } from './files';
import { documentTypes } from '../shared/documents';
import { useStation } from '../../state/station-store';
import { ScannerFiles } from './ScannerFiles';

type DocumentType = z.infer<typeof claimDocumentType>;

export interface ChosenDocument {
  readonly documentType: DocumentType;
  readonly title: string;
  readonly fileName: string;
  readonly contentType: ChosenFile['contentType'];
  readonly dataBase64: string;
}

const problemKey: Readonly<Record<FileProblem, string>> = {
  empty: 'claims.documents.empty',
  'too-big': 'claims.documents.tooBig',
  'wrong-type': 'claims.documents.wrongType',
  'not-what-it-says': 'claims.documents.notWhatItSays',
  unreadable: 'claims.documents.unreadable',
};

/** A document where SHA publishes a single type (the whitelist's): none is chosen. */
export type UntypedDocument = Omit<ChosenDocument, 'documentType'>;

type Chosen =
  | {
      /** The types SHA lists for the service (offered first); null where SHA does not say. */
      readonly listed: readonly DocumentType[] | null;
      /** Sends the document; answers whether it went (the form then empties). */
      readonly onAttach: (document: ChosenDocument) => Promise<boolean>;
    }
  | { readonly listed: 'untyped'; readonly onAttach: (document: UntypedDocument) => Promise<boolean> };

export function DocumentPicker({
  busy,
  attachLabel,
  ...chosen
}: Chosen & {
  readonly busy: boolean;
  /** The button's words where the document is kept for a request rather than sent at once. */
  readonly attachLabel?: string;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const typeId = useId();
  const [type, setType] = useState<DocumentType | ''>('');
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [problem, setProblem] = useState<{ key: string; size?: string } | null>(null);
  const [missing, setMissing] = useState<'type' | 'file' | null>(null);
  const [inputKey, setInputKey] = useState(0);
  /** The file chosen from the computer, as the field says it (a scan empties it). */
  const [picked, setPicked] = useState<{ readonly name: string; readonly size: number } | null>(null);
  const scannerFolder = useStation((s) => s.settings?.scannerFolder ?? null);
  // Drawn afresh (and listed again) once the document went, or a file from the computer took the scan's place.
  const [scanListKey, setScanListKey] = useState(0);
  const limit = format.bytes(MAX_BYTES, 'down');
  const typed = chosen.listed !== 'untyped';
  const listedTypes = chosen.listed === 'untyped' ? [] : (chosen.listed ?? []);
  const others = documentTypes.filter((d) => !listedTypes.includes(d));

  useEffect(() => setMissing(null), [type, file]);

  const choose = async (chosen: File | undefined) => {
    setFile(null);
    setProblem(null);
    if (chosen === undefined) return;
    const read = await readDocument(chosen);
    if (typeof read === 'string') setProblem({ key: problemKey[read], size: format.bytes(chosen.size) });
    else setFile(read);
  };
  /** The file field emptied, and its words with it. */
  const emptyFileField = () => {
    setInputKey((k) => k + 1);
    setPicked(null);
  };
  // A scan replaces a file chosen from the computer: the file input is emptied so the two never disagree.
  const chooseScan = async (scan: File) => {
    emptyFileField();
    await choose(scan);
  };
  const scanTooBig = (size: number) => {
    emptyFileField();
    setFile(null);
    setProblem({ key: problemKey['too-big'], size: format.bytes(size) });
  };

  const attach = async () => {
    if (typed && type === '') return setMissing('type');
    if (file === null) return setMissing('file');
    const document = { fileName: file.fileName, contentType: file.contentType, dataBase64: file.dataBase64 };
    const given = title.trim().slice(0, 200);
    const sent =
      chosen.listed === 'untyped'
        ? await chosen.onAttach({ ...document, title: given === '' ? file.fileName.slice(0, 200) : given })
        : type === ''
          ? false
          : await chosen.onAttach({ ...document, documentType: type, title: given === '' ? t(`claims.documentType.${type}`) : given });
    if (!sent) return;
    setType('');
    setTitle('');
    setFile(null);
    emptyFileField();
    setScanListKey((k) => k + 1);
  };

  const picture = file !== null && file.contentType !== 'application/pdf';
  return (
    <fieldset className="document-picker">
      <legend>{t('claims.documents.add')}</legend>
      {typed && (
        <div className="field">
          <label htmlFor={typeId}>{t('claims.documents.type')}</label>
          <select
            id={typeId}
            value={type}
            onChange={(event) => setType(event.target.value as DocumentType | '')}
            aria-invalid={missing === 'type' || undefined}
            aria-describedby={missing === 'type' ? `${typeId}-error` : undefined}
          >
            <option value="">{t('claims.documents.chooseType')}</option>
            {listedTypes.length > 0 && (
              <optgroup label={t('claims.documents.listedGroup')}>
                {listedTypes.map((d) => (
                  <option key={d} value={d}>
                    {t(`claims.documentType.${d}`)}
                  </option>
                ))}
              </optgroup>
            )}
            <optgroup label={t('claims.documents.otherGroup')}>
              {others.map((d) => (
                <option key={d} value={d}>
                  {t(`claims.documentType.${d}`)}
                </option>
              ))}
            </optgroup>
          </select>
          {missing === 'type' && (
            <span id={`${typeId}-error`} className="field-error">
              {t('claims.documents.needType')}
            </span>
          )}
        </div>
      )}
      <TextField label={t('claims.documents.name')} value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
      {scannerFolder !== null && <h4 className="document-source">{t('scannerFolder.fromFile')}</h4>}
      <FileField
        label={t('claims.documents.file', { limit })}
        accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png"
        resetKey={inputKey}
        chosen={picked === null ? null : `${picked.name} · ${format.bytes(picked.size)}`}
        error={problem !== null ? t(problem.key, { size: problem.size, limit }) : missing === 'file' ? t('claims.documents.needFile') : undefined}
        onChoose={(chosenFile) => {
          setScanListKey((k) => k + 1);
          setPicked(chosenFile === undefined ? null : { name: chosenFile.name, size: chosenFile.size });
          void choose(chosenFile);
        }}
      />
      {scannerFolder !== null && <ScannerFiles key={scanListKey} folder={scannerFolder} onChoose={chooseScan} onTooBig={scanTooBig} />}
      {file !== null && (
        <div className="document-preview" aria-label={t('claims.documents.preview')} role="group">
          <p className="document-preview-what">
            <strong>{file.fileName}</strong> ·{' '}
            {picture
              ? t('claims.documents.image', { type: file.contentType === 'image/png' ? 'PNG' : 'JPEG', size: format.bytes(file.size) })
              : file.pages === null
                ? t('claims.documents.pdfNoPages', { size: format.bytes(file.size) })
                : t('claims.documents.pdfPages', { count: file.pages, size: format.bytes(file.size) })}
          </p>
          {picture && <img className="document-preview-image" src={`data:${file.contentType};base64,${file.dataBase64}`} alt={file.fileName} lang={i18n.language} />}
        </div>
      )}
      {problem !== null && <Notice tone="warn">{t(problem.key, { size: problem.size, limit })}</Notice>}
      <Button busy={busy} onClick={() => void attach()}>
        {attachLabel ?? t('claims.documents.attach')}
      </Button>
    </fieldset>
  );
}
