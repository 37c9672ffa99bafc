// The claim documents the station makes from what it holds: the invoice (every billing line of the
// claim, per service and in all) and, for an inpatient stay, the discharge summary. Each is a PDF
// attached to the claim under the document type SHA lists for it (R docs billing: INVOICE,
// DISCHARGE_SUMMARY), as the peers attach theirs (docs/exchange-wire.md, "Claim documents the
// station makes"). Pure: the same input gives the same bytes; nothing is read but the fonts handed in.
import { MAX_LINE_FILES_BASE64 } from '../../contract/visit';
import type { DocumentFonts } from './fonts';
import {
  checked,
  dischargeSummaryInput,
  invoiceInput,
  type CheckedDischargeSummary,
  type CheckedInvoice,
  type DischargeSummaryInput,
  type InvoiceInput,
} from './input';
import { Sheet, type Row } from './sheet';
import { formatsFor, wordsFor, type Formats, type Words } from './words';

export interface ClaimDocument {
  /** SHA's `document_type` for it (R docs billing, the portal's list). */
  readonly documentType: 'INVOICE' | 'DISCHARGE_SUMMARY';
  /** What to send as its `document_title`: "Invoice INV-…" / "Ankara INV-…". */
  readonly title: string;
  readonly fileName: string;
  readonly contentType: 'application/pdf';
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly pages: number;
}

export interface Invoice extends ClaimDocument {
  readonly documentType: 'INVOICE';
  /** The invoice's total in shillings (the sum of its lines, to the cent). */
  readonly totalKes: number;
}

/** A document larger than a claim's papers may be (the contract's limit for one command's files). */
export class DocumentTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`the document is ${Math.ceil(bytes / 1024)} KiB, more than a claim document may be (${Math.floor((MAX_LINE_FILES_BASE64 * 3) / 4 / 1024)} KiB)`);
    this.name = 'DocumentTooLargeError';
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** Midnight (as a UTC timestamp) of the calendar day a moment falls on in East Africa Time; a day is itself. */
function eatDay(value: string): number {
  if (value.length === 10) return Date.parse(`${value}T00:00:00Z`);
  const shifted = Date.parse(value) + EAT_OFFSET_MS;
  return shifted - (shifted % DAY_MS);
}

function safeFileName(stem: string, invoiceNumber: string): string {
  return `${stem}-${invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
}

export function checkDocumentSize(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  if (Math.ceil(bytes.length / 3) * 4 > MAX_LINE_FILES_BASE64) throw new DocumentTooLargeError(bytes.length);
  return bytes;
}

const pageCount = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes).match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;

function serviceName(service: { code: string; name: string | null }): string {
  return service.name === null ? service.code : `${service.code} ${service.name}`;
}

function doctorText(doctor: CheckedInvoice['doctor'], w: Words): string {
  if (doctor === null) return w.noDoctor;
  const registration = `${doctor.regulator} ${doctor.registrationNumber}`;
  return doctor.name === null ? registration : `${doctor.name} (${registration})`;
}

function visitFacts(input: CheckedInvoice | CheckedDischargeSummary, w: Words, f: Formats): [string, string][] {
  const inpatient = input.visit.serviceType === 'INPATIENT';
  return [
    [w.patient, input.patient.name],
    [w.shaNumber, input.patient.shaNumber ?? '—'],
    [w.visitNumber, input.visit.visitNumber ?? '—'],
    [w.serviceType, w.serviceTypes[input.visit.serviceType]],
    [inpatient ? w.admitted : w.visitStart, f.dayAndTime(input.visit.start)],
    [inpatient ? w.discharged : w.visitEnd, input.visit.end === null ? w.stillOpen : f.dayAndTime(input.visit.end)],
  ];
}

function footer(input: { facility: { name: string }; issuedAt: string; invoiceNumber: string }, title: string, w: Words, f: Formats) {
  return (page: number, pages: number) => [`${input.facility.name} · ${title} ${input.invoiceNumber} · ${w.page(page, pages)}`, w.madeBy(f.dayAndTime(input.issuedAt))];
}

/** A line's amount in cents: SHA's total for it where given, else unit price × quantity. */
function lineCents(line: CheckedInvoice['lines'][number]): number {
  return line.amountKes === null ? Math.round(Math.round(line.unitPriceKes * 100) * line.quantity) : Math.round(line.amountKes * 100);
}

/** The invoice: the facility, its number and date, the patient, every line grouped by service, subtotals and the total. */
export async function makeInvoice(input: InvoiceInput, fonts: DocumentFonts): Promise<Invoice> {
  const v = checked(invoiceInput, input);
  const w = wordsFor(v.language);
  const f = formatsFor(v.language);
  const title = `${w.invoiceTitle} ${v.invoiceNumber}`;
  const sheet = new Sheet({ fonts, language: v.language, createdAt: new Date(v.issuedAt), title, author: v.facility.name });
  sheet.header(v.facility.name, `${w.facilityCode}: ${v.facility.code}`, w.invoiceTitle);
  sheet.facts([
    [w.invoiceNumber, v.invoiceNumber],
    [w.invoiceDate, f.day(v.issuedAt)],
    ...visitFacts(v, w, f),
    [w.doctor, doctorText(v.doctor, w)],
  ]);

  const services = v.visit.services.filter((s) => v.lines.some((l) => l.interventionCode === s.code));
  const rows: Row[] = [];
  let number = 0;
  let totalCents = 0;
  for (const service of services) {
    let subtotal = 0;
    for (const line of v.lines.filter((l) => l.interventionCode === service.code)) {
      const cents = lineCents(line);
      subtotal += cents;
      number += 1;
      rows.push({
        cells: [
          String(number),
          line.chargeDate === null ? '—' : f.day(line.chargeDate),
          `${line.description}\n${service.code}`,
          f.quantity(line.quantity),
          f.amount(Math.round(line.unitPriceKes * 100)),
          f.amount(cents),
        ],
      });
    }
    totalCents += subtotal;
    if (services.length > 1) rows.push({ cells: ['', '', w.subtotal(serviceName(service)), '', '', f.amount(subtotal)], emphasis: true });
  }
  sheet.heading(w.services);
  sheet.table(
    [
      { header: w.lineNumber, width: 6 },
      { header: w.date, width: 14 },
      { header: w.description, width: 36 },
      { header: w.quantity, width: 12, align: 'right' },
      { header: w.unitPrice, width: 15, align: 'right' },
      { header: w.amount, width: 17, align: 'right' },
    ],
    rows,
  );
  sheet.total(w.total, f.money(totalCents));
  const bytes = checkDocumentSize(await sheet.finish(footer(v, w.invoiceTitle, w, f)));
  return {
    documentType: 'INVOICE',
    title,
    fileName: safeFileName(v.language === 'sw' ? 'ankara' : 'invoice', v.invoiceNumber),
    contentType: 'application/pdf',
    bytes,
    pages: pageCount(bytes),
    totalKes: totalCents / 100,
  };
}

/** The discharge summary of an inpatient stay: admission and discharge, length of stay, services, diagnoses, doctor, reason. */
export async function makeDischargeSummary(input: DischargeSummaryInput, fonts: DocumentFonts): Promise<ClaimDocument> {
  const v = checked(dischargeSummaryInput, input);
  const w = wordsFor(v.language);
  const f = formatsFor(v.language);
  const title = `${w.summaryTitle} ${v.invoiceNumber}`;
  const sheet = new Sheet({ fonts, language: v.language, createdAt: new Date(v.issuedAt), title, author: v.facility.name });
  sheet.header(v.facility.name, `${w.facilityCode}: ${v.facility.code}`, w.summaryTitle);
  // Days as a ward counts them: the nights between admission and discharge, their calendar days in
  // the facility's zone (in on the 5th, out on the 9th: 4 days), and a day for a same-day stay.
  const days = Math.max(1, Math.round((eatDay(v.discharge.at) - eatDay(v.visit.start)) / DAY_MS));
  const reason = v.discharge.referredTo === null ? w.reasons[v.discharge.reason] : `${w.reasons[v.discharge.reason]}: ${v.discharge.referredTo.name} (${v.discharge.referredTo.code})`;
  sheet.facts([
    [w.patient, v.patient.name],
    [w.shaNumber, v.patient.shaNumber ?? '—'],
    [w.invoiceNumber, v.invoiceNumber],
    [w.visitNumber, v.visit.visitNumber ?? '—'],
    [w.admitted, f.dayAndTime(v.visit.start)],
    [w.discharged, f.dayAndTime(v.discharge.at)],
    [w.stay, w.lengthOfStay(days)],
    [w.doctor, doctorText(v.doctor, w)],
    [w.dischargeReason, reason],
  ]);
  sheet.heading(w.services);
  sheet.table(
    [
      { header: w.lineNumber, width: 6 },
      { header: w.services, width: 94 },
    ],
    v.visit.services.map((s, i) => ({ cells: [String(i + 1), serviceName(s)] })),
  );
  sheet.heading(w.diagnoses);
  sheet.table(
    [
      { header: 'ICD-11', width: 16 },
      { header: w.diagnoses, width: 60 },
      { header: w.services, width: 24 },
    ],
    v.diagnoses.map((d) => ({ cells: [d.code, d.title ?? '—', d.interventionCode ?? '—'] })),
  );
  if (v.discharge.notes !== null && v.discharge.notes !== '') {
    sheet.heading(w.notes);
    sheet.paragraph(v.discharge.notes);
  }
  const bytes = checkDocumentSize(await sheet.finish(footer(v, w.summaryTitle, w, f)));
  return {
    documentType: 'DISCHARGE_SUMMARY',
    title,
    fileName: safeFileName(v.language === 'sw' ? 'muhtasari-wa-kuruhusiwa' : 'discharge-summary', v.invoiceNumber),
    contentType: 'application/pdf',
    bytes,
    pages: pageCount(bytes),
  };
}
