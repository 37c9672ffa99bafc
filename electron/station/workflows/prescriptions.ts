// The payer's side of a visit's prescriptions, read back: SHA's preview by the visit's consent token
// (docs/exchange-wire.md, prescriptions.preview). It answers ONE prescription object, and which one
// when a consent token carries several is not documented; so an answer is tied to a prescription of
// the visit only by what it proves: SHA's number (or id) of one already written, or, for one whose
// create answer was lost, the same generic concepts and no other unconfirmed one like it. An answer
// that proves nothing leaves everything as it was; nothing is ever sent again from a read-back.
import { isExchangeError, type Prescription, type PrescriptionPreview } from '../../payer';
import { fail } from '../errors';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { journal } from './journal';
import type { PrescriptionRecord, VisitWorkflow } from './types';

export const prescriptionsOf = (visit: VisitWorkflow): PrescriptionRecord[] => visit.data.prescriptions ?? [];

/** An exchange word kept as the station shows it: trimmed, at most 200 characters, null when blank. */
export const cut = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim().slice(0, 200));

/** SHA's answer about a prescription (the create's or the read-back's), kept on its record. */
export function applyAnswer(rx: PrescriptionRecord, answer: Prescription, at: string): void {
  rx.state = 'written';
  rx.exchangeCode = cut(answer.code) ?? rx.exchangeCode;
  rx.exchangeId = cut(answer.id ?? answer.guid) ?? rx.exchangeId ?? null;
  rx.status = cut(answer.status);
  rx.reviewStatus = cut(answer.doctorReviewStatus);
  rx.statusAt = at;
}

export type ReadBackAnswer = 'matched' | 'settled' | 'unmatched' | 'none';

export interface ReadBack {
  readonly answer: ReadBackAnswer;
  /** The prescription SHA's answer was about, when it proves which. */
  readonly shown: PrescriptionRecord | null;
  /** When SHA answered. */
  readonly at: string;
}

/** SHA's dosage order is not documented: a prescription's concepts are compared as a sorted list. */
const conceptsKey = (codes: readonly string[]) => [...codes].sort().join('\n');

function isWrittenAs(rx: PrescriptionRecord, answer: PrescriptionPreview): boolean {
  if (rx.state !== 'written') return false;
  const code = cut(answer.code);
  const id = cut(answer.id ?? answer.guid);
  return (code !== null && rx.exchangeCode === code) || (id !== null && rx.exchangeId === id);
}

/** Which prescription of the visit the answer proves it is about, and whether that settles a lost create. */
export function tie(prescriptions: readonly PrescriptionRecord[], answer: PrescriptionPreview): Pick<ReadBack, 'answer' | 'shown'> {
  const known = prescriptions.find((rx) => isWrittenAs(rx, answer));
  if (known !== undefined) return { answer: 'matched', shown: known };
  if (answer.medicationIdentifiers.length === 0) return { answer: 'unmatched', shown: null };
  const key = conceptsKey(answer.medicationIdentifiers);
  const alike = prescriptions.filter((rx) => rx.state === 'sending' && conceptsKey(rx.items.map((item) => item.conceptCode)) === key);
  // Two unconfirmed prescriptions of the same medicines: the answer cannot say which of them SHA has.
  return alike.length === 1 ? { answer: 'settled', shown: alike[0]! } : { answer: 'unmatched', shown: null };
}

/**
 * Asks SHA and keeps what the answer proves on the visit. SHA showing no prescription for the visit
 * answers `none`; every other failure is the caller's (a read-back on demand shows it to the nurse).
 */
export async function readBackPrescriptions(c: Ctx, visit: VisitWorkflow): Promise<ReadBack> {
  const consentToken = visit.data.consentToken;
  if (consentToken === null) fail('WRONG_STATE', 'This visit has no claim at SHA, so SHA holds no prescription of it.', { state: visit.state });
  let answer: PrescriptionPreview;
  try {
    answer = await c.session.client().prescriptions.preview({ consent_token: consentToken });
  } catch (error) {
    if (isExchangeError(error) && error.kind === 'not_found') return { answer: 'none', shown: null, at: c.nowIso() };
    throw error;
  }
  const at = c.nowIso();
  const readBack = { ...tie(prescriptionsOf(visit), answer), at };
  const shown = readBack.shown;
  if (shown !== null) {
    c.engine.commit(() => {
      applyAnswer(shown, answer, at);
      c.engine.save(visit);
    });
  }
  return readBack;
}

/** Failures that say nothing about the prescription and may pass: the reconciliation is tried again later. */
const passing = (error: unknown) => isExchangeError(error) && (error.outcomeUnknown || ['network', 'timeout', 'server', 'unauthorized'].includes(error.kind));

/**
 * Settles the visit's prescription creates whose answer was lost. Only the first prescription of a
 * consent token is journaled `look-up` (a later one is `cannot-look-up`, settled as unknowable:
 * SHA's one answer can only be about the first); a read-back that happens to prove a later one
 * still settles it, on opening or on demand. Answers the calls left for the visit's reconciliation.
 */
export async function settlePrescriptionCreates(c: Ctx, visit: VisitWorkflow, calls: CallRecord[]): Promise<CallRecord[]> {
  const creates = calls.filter((call) => call.operation === journal.createPrescription.name);
  if (creates.length === 0) return calls;
  let readBack: ReadBack | 'refused';
  try {
    readBack = await readBackPrescriptions(c, visit);
  } catch (error) {
    if (passing(error)) throw error;
    readBack = 'refused';
  }
  c.engine.commit(() => {
    for (const call of creates) {
      const summary =
        readBack === 'refused'
          ? 'SHA refused the prescription read-back: kept unconfirmed'
          : readBack.answer === 'settled'
            ? 'the prescription read-back shows it at SHA'
            : 'the prescription read-back does not show it: kept unconfirmed';
      c.engine.reconciled(call, summary, visit);
    }
  });
  return calls.filter((call) => !creates.includes(call));
}
