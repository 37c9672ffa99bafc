// What SHA's one-object prescription read-back proves about a visit's prescriptions
// (electron/station/workflows/prescriptions.ts `tie`): a written one by SHA's number or id; an
// unconfirmed one by its medicines, only while no other unconfirmed one has the same medicines.
import { describe, expect, it } from 'vitest';
import type { PrescriptionPreview } from '../../../electron/payer';
import { tie } from '../../../electron/station/workflows/prescriptions';
import type { PrescriptionRecord } from '../../../electron/station/workflows/types';

const prescriber = { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
const item = (conceptCode: string) => ({ conceptCode, conceptName: null, doseQuantity: 1, doseUnit: 'tablet', timesPerPeriod: 2, period: 'day' as const, duration: 5, durationUnit: 'day' as const, refills: 0, patientInstruction: null, additionalInstruction: null });

function record(ref: string, concepts: string[], written: { code: string; id?: string } | null): PrescriptionRecord {
  return {
    ref,
    writtenAt: '2026-11-25T08:00:00.000Z',
    prescriber,
    items: concepts.map(item),
    state: written === null ? 'sending' : 'written',
    exchangeCode: written?.code ?? null,
    exchangeId: written?.id ?? null,
    status: written === null ? null : 'ACTIVE',
    reviewStatus: written === null ? null : 'PENDING',
    dispenses: [],
  };
}

const answer = (fields: Partial<PrescriptionPreview>): PrescriptionPreview => ({ id: undefined, guid: undefined, code: undefined, status: 'ACTIVE', replicated: undefined, doctorReviewStatus: 'APPROVED', medicationIdentifiers: [], ...fields });

describe('tying SHA’s read-back to a prescription of the visit', () => {
  const written = record('rx_written0001', ['AMOX-500'], { code: 'RX-1', id: '17' });
  const lost = record('rx_lost0000001', ['PARA-500', 'METF-500'], null);

  it('ties it to a written prescription by SHA’s number, or by its id when the answer has no number', () => {
    expect(tie([written, lost], answer({ code: 'RX-1', id: '17', medicationIdentifiers: ['AMOX-500'] }))).toEqual({ answer: 'matched', shown: written });
    expect(tie([written, lost], answer({ id: '17' }))).toEqual({ answer: 'matched', shown: written });
  });

  it('settles an unconfirmed one by the same medicines in any order, when SHA’s number is none of the visit’s', () => {
    expect(tie([written, lost], answer({ code: 'RX-2', id: '18', medicationIdentifiers: ['METF-500', 'PARA-500'] }))).toEqual({ answer: 'settled', shown: lost });
  });

  it('proves nothing with other medicines, with none listed, or with two unconfirmed prescriptions of the same medicines', () => {
    expect(tie([written, lost], answer({ code: 'RX-2', medicationIdentifiers: ['PARA-500'] }))).toEqual({ answer: 'unmatched', shown: null });
    expect(tie([written, lost], answer({ code: 'RX-2' }))).toEqual({ answer: 'unmatched', shown: null });
    const twin = record('rx_lost0000002', ['METF-500', 'PARA-500'], null);
    expect(tie([written, lost, twin], answer({ code: 'RX-2', medicationIdentifiers: ['PARA-500', 'METF-500'] }))).toEqual({ answer: 'unmatched', shown: null });
  });

  it('never settles a written prescription by its medicines alone: another with the same medicines may be the one SHA shows', () => {
    const again = record('rx_written0002', ['AMOX-500'], { code: 'RX-3' });
    expect(tie([written, again], answer({ code: 'RX-9', medicationIdentifiers: ['AMOX-500'] }))).toEqual({ answer: 'unmatched', shown: null });
  });
});
