// "From the scanner": the files the scanner saved in the folder the administrator set, newest first,
// listed afresh when the picker opens and on "Look again" (the station does not watch the folder:
// scanners save to network shares, where watching is unreliable). Choosing one reads it through the
// station by its name and hands it to the picker as a file, for the same checks and preview as a
// file chosen from the computer.
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { MAX_BYTES } from './files';

type Listing = CommandOutput<'scanner.list'>;
/** The newest shown at first; the rest on demand (a scanner's folder keeps months of scans). */
const SHOWN_FIRST = 6;

function fileOf(name: string, contentType: string, dataBase64: string): File {
  const binary = atob(dataBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], name, { type: contentType });
}

export function ScannerFiles({
  folder,
  onChoose,
  onTooBig,
}: {
  /** The folder as the administrator set it (shown so IT can be told which one). */
  readonly folder: string;
  readonly onChoose: (file: File) => Promise<void>;
  /** A listed file over the limit: refused from its listed size, not read. */
  readonly onTooBig: (size: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const titleId = useId();
  const [listing, setListing] = useState<Listing | null>(null);
  const [looking, setLooking] = useState(false);
  const [reading, setReading] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [gone, setGone] = useState(false);
  const [failed, setFailed] = useState(false);
  const [all, setAll] = useState(false);

  const look = useCallback(async () => {
    setLooking(true);
    const answer = await call('scanner.list', {});
    setLooking(false);
    setFailed(!answer.ok);
    if (answer.ok) setListing(answer.value);
  }, []);
  // Listed afresh each time the picker opens.
  useEffect(() => void look(), [look]);

  const choose = async (file: Listing['files'][number]) => {
    setGone(false);
    setChosen(file.name);
    if (file.size > MAX_BYTES) return onTooBig(file.size);
    setReading(file.name);
    const answer = await call('scanner.read', { name: file.name });
    setReading(null);
    if (answer.ok) return onChoose(fileOf(answer.value.name, file.contentType, answer.value.dataBase64));
    setChosen(null);
    setGone(true);
    await look();
  };

  const files = listing?.files ?? [];
  const shown = all ? files : files.slice(0, SHOWN_FIRST);
  return (
    <section className="scanner-files" aria-labelledby={titleId}>
      <div className="scanner-files-head">
        <h4 id={titleId} className="document-source">{t('scannerFolder.fromScanner')}</h4>
        <Button tone="quiet" busy={looking} onClick={() => void look()}>
          {t('scannerFolder.lookAgain')}
        </Button>
      </div>
      {gone && (
        <p className="field-error" role="alert">
          {t('scannerFolder.gone')}
        </p>
      )}
      {failed && <Notice tone="warn">{t('scannerFolder.cannotAsk')}</Notice>}
      {listing !== null && listing.folder !== 'ready' && listing.folder !== 'not-set' && (
        <Notice tone="warn">{t(`scannerFolder.${listing.folder}`, { folder })}</Notice>
      )}
      {listing?.folder === 'ready' && files.length === 0 && <p className="muted">{t('scannerFolder.empty', { folder })}</p>}
      {shown.length > 0 && (
        <ul className="scanner-list">
          {shown.map((file) => (
            <li key={file.name}>
              <Button tone={chosen === file.name ? 'secondary' : 'quiet'} busy={reading === file.name} aria-pressed={chosen === file.name} onClick={() => void choose(file)}>
                <span className="scanner-name">{file.name}</span>
                <span className="muted">{t('scannerFolder.saved', { size: format.bytes(file.size), time: format.clock(file.modifiedAt) })}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {!all && files.length > SHOWN_FIRST && (
        <Button tone="quiet" onClick={() => setAll(true)}>
          {t('scannerFolder.showAll', { count: files.length })}
        </Button>
      )}
    </section>
  );
}
