// An audit record in the nurse's words: what the station did or what happened to a workflow, and
// with what outcome. The record itself (its action, summary and hash) is the station's technical
// English, kept for the IT officer beside these words. Every workflow event, exchange call and
// station action the core records has its words (test/unit/renderer/i18n.test.ts holds the core to it).
import type { TFunction } from 'i18next';
import type { AuditEntryView } from '../../../electron/contract';

const kinds = new Set(['consent', 'visit', 'discharge', 'elective', 'emergency']);

/** Keys of i18next use dots: an operation's name ("claims.createVisit") is keyed with "_". */
const keyOf = (name: string) => name.replace(/\./g, '_');

function operationWords(t: TFunction, operation: string): string {
  return t(`activity.operation.${keyOf(operation)}`, { defaultValue: t('activity.operation.other') });
}

export function whatHappened(t: TFunction, record: AuditEntryView): string {
  const action = record.action;
  const dot = action.indexOf('.');
  const family = action.slice(0, dot);
  const rest = action.slice(dot + 1);
  if (family === 'exchange') return t(`activity.exchange.${record.outcome}`, { what: operationWords(t, rest) });
  if (family === 'reconcile') return t('activity.reconciled', { what: operationWords(t, rest) });
  if (kinds.has(family) && rest === 'created') return t(`activity.created.${family}`);
  if (action === 'patient.lookUp') return t(/\bnot covered\b/.test(record.summary) ? 'activity.actions.patient_lookUp_notCovered' : 'activity.actions.patient_lookUp_covered');
  const known = t(`activity.actions.${keyOf(action)}`, { defaultValue: '' });
  if (known !== '') return known;
  if (kinds.has(family)) return t(`activity.event.${family}.${rest}`, { defaultValue: t('activity.event.other', { context: family, kind: t(`work.kind.${family}`) }) });
  return t('activity.actions.other');
}
