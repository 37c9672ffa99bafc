// The queue's rows in words: whose work (masked), what it is waiting for, the answer that came, and
// the deadline that counts. Shared by the Work in progress screen, a patient's unfinished work and
// the notice under the top bar.
import type { TFunction } from 'i18next';
import type { WorkAnswer, WorkflowView } from '../../../electron/contract';

export function patientOf(t: TFunction, view: WorkflowView): string {
  return 'patient' in view && view.patient !== null ? view.patient.maskedName : t('work.unidentified');
}

export function answerWords(t: TFunction, answer: WorkAnswer, patient: string): string {
  return t(`work.answer.${answer.about}.${answer.by}.${answer.outcome}`, { patient });
}

/** The deadline the nurse must beat: the soonest of the view's, the code's resend wait excepted. */
export function deadlineOf(view: WorkflowView): WorkflowView['deadlines'][number] | null {
  const counted = view.deadlines.filter((d) => d.kind !== 'sms-resend');
  return counted.reduce<WorkflowView['deadlines'][number] | null>((soonest, d) => (soonest === null || Date.parse(d.at) < Date.parse(soonest.at) ? d : soonest), null);
}

/** How long something has waited, in the nurse's words: "4 min", "2 h 14 min", "3 days". */
export function waitedWords(t: TFunction, ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return t('time.underMinute');
  if (minutes < 60) return t('time.minutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours >= 48) return t('time.days', { count: Math.floor(hours / 24) });
  return minutes % 60 === 0 ? t('time.hours', { count: hours }) : t('time.hoursMinutes', { hours, minutes: minutes % 60 });
}
