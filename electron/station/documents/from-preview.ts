// The invoice's lines and the visit's services as SHA's preview of the claim holds them, so the
// paper says what SHA will pay against: its lines (`invoices[].lines`), each with SHA's own total,
// and the services standing on the claim (retired ones are INACTIVE and have lost their lines).
import type { ClaimPreview } from '../../payer';
import { DocumentInputError, type InvoiceInput } from './input';

export interface ClaimOnPaper {
  readonly services: InvoiceInput['visit']['services'];
  readonly lines: InvoiceInput['lines'];
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** A charge date as the invoice takes it: a moment with its offset, else its day. */
function chargeDay(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))) return value;
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1];
  return day === undefined || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? null : day;
}

/**
 * What the invoice needs of the preview. A line SHA marks inactive is left out; a line without its
 * intervention is put on the claim's one service, and refused when the claim has several (the
 * invoice would guess which service it belongs to).
 */
export function claimOnPaper(preview: ClaimPreview): ClaimOnPaper {
  const standing = preview.interventionStates.filter((i) => i.active).map((i) => ({ code: i.interventionCode, name: i.name ?? null }));
  const services =
    standing.length > 0
      ? standing
      : [...new Set(preview.lines.flatMap((l) => (l.interventionCode === undefined ? [] : [l.interventionCode])))].map((code) => ({ code, name: null }));
  const lines = preview.lines
    .filter((l) => l.active !== false)
    .map((l, n) => {
      const interventionCode = l.interventionCode ?? (services.length === 1 ? services[0]?.code : undefined);
      if (interventionCode === undefined) throw new DocumentInputError(`lines.${n}.interventionCode`, 'SHA did not say which service this line is for');
      const quantity = l.quantity !== undefined && l.quantity > 0 ? l.quantity : 1;
      const unitPrice = l.unitPrice ?? (l.amount === undefined ? 0 : l.amount / quantity);
      return {
        interventionCode,
        description: l.itemName ?? l.itemCode ?? interventionCode,
        chargeDate: chargeDay(l.chargeDate),
        quantity,
        unitPriceKes: cents(unitPrice),
        amountKes: l.amount === undefined ? null : cents(l.amount),
      };
    });
  return { services, lines };
}
