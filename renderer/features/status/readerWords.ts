// The reader and the hardware service in words, with a tone for the colour. One place, so the
// status bar and the fingerprint panel always say the same thing.
import type { TFunction } from 'i18next';
import type { ReadersSnapshot } from '../../../electron/contract';

type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

export function readerWords(readers: ReadersSnapshot): { tone: Tone; text: (t: TFunction) => string } {
  const reader = readers.reader;
  const tone: Tone = reader.state === 'error' ? 'bad' : reader.state === 'absent' ? 'warn' : 'ok';
  return {
    tone,
    text: (t) => {
      const name = reader.virtual ? t('readers.virtual') : (reader.label ?? t('readers.reader'));
      const state = t(`readers.state.${reader.state}`);
      return reader.state === 'absent' ? state : `${name}: ${state}`;
    },
  };
}

/** The exchange's hardware service, or the station's own device service standing in for it. */
export function serviceWords(readers: ReadersSnapshot): { tone: Tone; text: (t: TFunction) => string } {
  const service = readers.hardwareService.state;
  if (service === 'ready') return { tone: 'ok', text: (t) => t('readers.service.ready') };
  if (readers.localDeviceService.state === 'running') return { tone: 'ok', text: (t) => t('readers.local.running') };
  const tone: Tone = service === 'not-running' && readers.localDeviceService.state !== 'failed' ? 'warn' : 'bad';
  return { tone, text: (t) => t(`readers.service.${service}`) };
}
