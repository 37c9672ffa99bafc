// The invoice and discharge summary the station makes, read back out of the PDF as text (PDF.js):
// every line, the subtotals and total, the patient's name as written (ĩ, ũ, ’), in English and in
// Kiswahili; the same input gives the same bytes whatever the computer's time zone; the file passes
// the checks every claim paper passes (PDF by its content, the contract's size limit, the sandbox's
// upload check); bad input is refused naming the field.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lineAttachment, MAX_LINE_FILES_BASE64 } from '../../../electron/contract/visit';
import { checkAttachment } from '../../../electron/sandbox/uploads';
import {
  DocumentInputError,
  DocumentTooLargeError,
  loadDocumentFonts,
  makeDischargeSummary,
  makeInvoice,
  type DischargeSummaryInput,
  type InvoiceInput,
} from '../../../electron/station/documents';
import { checkDocumentSize } from '../../../electron/station/documents/make';
import { claimOnPaper } from '../../../electron/station/documents/from-preview';
import { previewResponse } from '../../../electron/payer/wire';
import { woffToTrueType } from '../../../electron/station/documents/fonts';
import { pdfPages, sniff } from '../../../renderer/features/claims/files';

const fonts = loadDocumentFonts();
const PATIENT = 'Wanjirũ Kĩmani Ng’ang’a';

const visit: InvoiceInput['visit'] = {
  visitNumber: 'VN-12345-000042',
  serviceType: 'INPATIENT',
  start: '2026-03-05T08:30:00+03:00',
  end: '2026-03-09T09:00:00+03:00',
  services: [
    { code: 'SHA-04-001', name: 'General ward inpatient day' },
    { code: 'SHA-07-003', name: 'Chest X-ray' },
  ],
};

const invoice = (overrides: Partial<InvoiceInput> = {}): InvoiceInput => ({
  language: 'en',
  issuedAt: '2026-03-09T10:15:00+03:00',
  facility: { name: 'Idhini Demo Hospital', code: 'FID-00-000004-0' },
  invoiceNumber: 'INV-12345-000042',
  patient: { name: PATIENT, shaNumber: 'CR5284739102216-4' },
  visit,
  doctor: { name: 'Dr. Achieng Odhiambo', registrationNumber: 'A12345', regulator: 'KMPDC' },
  lines: [
    { interventionCode: 'SHA-04-001', description: 'General ward day (4 days)', chargeDate: '2026-03-05', quantity: 4, unitPriceKes: 3500, amountKes: null },
    { interventionCode: 'SHA-07-003', description: 'Chest X-ray, two views', chargeDate: '2026-03-06', quantity: 1, unitPriceKes: 2500.5, amountKes: null },
    { interventionCode: 'SHA-04-001', description: 'Oxygen therapy', chargeDate: '2026-03-06T14:00:00+03:00', quantity: 2.5, unitPriceKes: 1200, amountKes: 3000 },
  ],
  ...overrides,
});

const { lines: _lines, ...common } = invoice();
const summary = (overrides: Partial<DischargeSummaryInput> = {}): DischargeSummaryInput => ({
  ...common,
  diagnoses: [
    { code: 'CA40.Z', title: 'Pneumonia, unspecified', interventionCode: 'SHA-04-001' },
    { code: 'CA23', title: null, interventionCode: null },
  ],
  discharge: { at: '2026-03-09T09:00:00+03:00', reason: 'RECOVERED', referredTo: null, notes: 'Wound clean; review in two weeks.' },
  ...overrides,
});

/** The document's text as a reader's copy would give it, whitespace folded; and its metadata. */
async function read(bytes: Uint8Array): Promise<{ text: string; pages: number; info: Record<string, unknown>; perPage: string[] }> {
  const pdf = await getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false }).promise;
  const perPage: string[] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    perPage.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  const { info } = await pdf.getMetadata();
  await pdf.destroy();
  return { text: perPage.join(' '), pages: pdf.numPages, info: info as Record<string, unknown>, perPage };
}

describe('the invoice', () => {
  it('carries the facility, the invoice number and date, the patient, every line and the totals (English)', async () => {
    const made = await makeInvoice(invoice(), fonts);
    const { text, pages } = await read(made.bytes);
    expect(made).toMatchObject({ documentType: 'INVOICE', title: 'Invoice INV-12345-000042', fileName: 'invoice-INV-12345-000042.pdf', contentType: 'application/pdf', pages: 1 });
    expect(pages).toBe(1);
    for (const expected of [
      'Idhini Demo Hospital',
      'FID-00-000004-0',
      'Invoice',
      'Invoice number INV-12345-000042',
      'Invoice date 9 Mar 2026',
      `Patient ${PATIENT}`,
      'SHA number CR5284739102216-4',
      'Visit number VN-12345-000042',
      'Admitted 5 Mar 2026, 08:30',
      'Discharged 9 Mar 2026, 09:00',
      'Dr. Achieng Odhiambo (KMPDC A12345)',
      // Each line: its number, day, description, service, quantity, unit price, amount.
      '1 5 Mar 2026 General ward day (4 days) SHA-04-001 4 3,500.00 14,000.00',
      '2 6 Mar 2026 Oxygen therapy SHA-04-001 2.5 1,200.00 3,000.00',
      'Subtotal, SHA-04-001 General ward inpatient day 17,000.00',
      '3 6 Mar 2026 Chest X-ray, two views SHA-07-003 1 2,500.50 2,500.50',
      'Subtotal, SHA-07-003 Chest X-ray 2,500.50',
      'Total Ksh 19,500.50',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
    // SHA's own amount for a line wins over unit price × quantity (2.5 × 1,200 would be 3,000 too; here it is SHA's).
    expect(made.totalKes).toBe(19_500.5);
  });

  it('is written in Kiswahili when asked, with the same figures', async () => {
    const made = await makeInvoice(invoice({ language: 'sw' }), fonts);
    const { text } = await read(made.bytes);
    expect(made).toMatchObject({ title: 'Ankara INV-12345-000042', fileName: 'ankara-INV-12345-000042.pdf' });
    for (const expected of [
      'Ankara',
      'Msimbo wa kituo cha afya: FID-00-000004-0',
      'Nambari ya ankara INV-12345-000042',
      'Tarehe ya ankara 9 Mac 2026',
      `Mgonjwa ${PATIENT}`,
      'Alilazwa 5 Mac 2026, saa 08:30',
      'Aliruhusiwa kutoka 9 Mac 2026, saa 09:00',
      'Daktari anayemhudumia',
      'Idadi',
      'Bei ya kimoja (KES)',
      '1 5 Mac 2026 General ward day (4 days) SHA-04-001 4 3,500.00 14,000.00',
      'Jumla ndogo, SHA-04-001 General ward inpatient day 17,000.00',
      'Jumla Ksh 19,500.50',
      'Ukurasa 1 kati ya 1',
      'Imetengenezwa na kompyuta ya Idhini, 9 Mac 2026, saa 10:15.',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('breaks a long stay across pages, the table header repeated and every page numbered', async () => {
    const lines = Array.from({ length: 45 }, (_, i) => ({
      interventionCode: 'SHA-04-001',
      description: `Ward round, day ${i + 1}`,
      chargeDate: `2026-03-${String(5 + (i % 20)).padStart(2, '0')}`,
      quantity: 1,
      unitPriceKes: 3500,
      amountKes: null,
    }));
    const made = await makeInvoice(invoice({ lines }), fonts);
    const { perPage, pages, text } = await read(made.bytes);
    expect(pages).toBeGreaterThan(1);
    expect(made.pages).toBe(pages);
    perPage.forEach((page, i) => {
      expect(page).toContain('Service or item');
      expect(page).toContain(`Page ${i + 1} of ${pages}`);
    });
    for (let day = 1; day <= 45; day += 1) expect(text).toContain(`Ward round, day ${day} SHA-04-001`);
    expect(text).toContain('Total Ksh 157,500.00');
    // One service: no subtotal row.
    expect(text).not.toContain('Subtotal');
  });

  it('is the same file, byte for byte, for the same input, whatever the computer’s time zone', async () => {
    const first = await makeInvoice(invoice(), fonts);
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      const second = await makeInvoice(invoice(), fonts);
      expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    const { info } = await read(first.bytes);
    // The PDF's creation date is the invoice's own date (10:15 EAT = 07:15 UTC), never the clock's.
    expect(String(info.CreationDate)).toMatch(/^D:20260309071500Z/);
    const later = await makeInvoice(invoice({ issuedAt: '2026-03-10T08:00:00+03:00' }), fonts);
    expect(Buffer.from(later.bytes).equals(Buffer.from(first.bytes))).toBe(false);
  });

  it('passes the checks every claim paper passes: PDF by content, within the contract’s limit, accepted by the sandbox’s upload check', async () => {
    const made = await makeInvoice(invoice(), fonts);
    expect(sniff(made.bytes)).toBe('application/pdf');
    expect(pdfPages(made.bytes)).toBe(made.pages);
    const dataBase64 = Buffer.from(made.bytes).toString('base64');
    expect(dataBase64.length).toBeLessThanOrEqual(MAX_LINE_FILES_BASE64);
    expect(lineAttachment.safeParse({ documentType: made.documentType, title: made.title, fileName: made.fileName, contentType: made.contentType, dataBase64 }).success).toBe(true);
    expect(checkAttachment({ fieldname: 'file_blob', filename: made.fileName, mimetype: made.contentType, data: Buffer.from(made.bytes) })).toBe('application/pdf');
  });

  it('embeds its own font (no PDF standard font), so every letter prints on any computer', async () => {
    const made = await makeInvoice(invoice(), fonts);
    const raw = new TextDecoder('latin1').decode(made.bytes);
    expect(raw).toMatch(/\/FontFile2 /);
    expect(raw).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier)/);
  });

  it.each<[string, Partial<InvoiceInput>, string]>([
    ['a line of a service the visit does not have', { lines: [{ interventionCode: 'SHA-99-999', description: 'x', chargeDate: null, quantity: 1, unitPriceKes: 1, amountKes: null }] }, 'lines.0.interventionCode'],
    ['a negative price', { lines: [{ interventionCode: 'SHA-04-001', description: 'x', chargeDate: null, quantity: 1, unitPriceKes: -5, amountKes: null }] }, 'lines.0.unitPriceKes'],
    ['a price in fractions of a cent', { lines: [{ interventionCode: 'SHA-04-001', description: 'x', chargeDate: null, quantity: 1, unitPriceKes: 10.005, amountKes: null }] }, 'lines.0.unitPriceKes'],
    ['no lines', { lines: [] }, 'lines'],
    ['a date without its offset', { issuedAt: '2026-03-09T10:15:00' }, 'issuedAt'],
    ['a visit ending before it began', { visit: { ...visit, end: '2026-03-01T08:00:00+03:00' } }, 'visit.end'],
    ['an unknown language', { language: 'fr' as never }, 'language'],
  ])('refuses %s, naming the field', async (_label, overrides, field) => {
    const error = await makeInvoice(invoice(overrides), fonts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentInputError);
    expect((error as DocumentInputError).field).toBe(field);
  });

  it('refuses a file larger than a claim paper may be, saying how large', () => {
    expect(() => checkDocumentSize(new Uint8Array(Math.floor((MAX_LINE_FILES_BASE64 * 3) / 4)))).not.toThrow();
    expect(() => checkDocumentSize(new Uint8Array(Math.floor((MAX_LINE_FILES_BASE64 * 3) / 4) + 3))).toThrow(DocumentTooLargeError);
  });
});

describe('the discharge summary', () => {
  it('carries the stay, its services, diagnoses, doctor and the reason for discharge (English)', async () => {
    const made = await makeDischargeSummary(summary(), fonts);
    const { text } = await read(made.bytes);
    expect(made).toMatchObject({ documentType: 'DISCHARGE_SUMMARY', title: 'Discharge summary INV-12345-000042', fileName: 'discharge-summary-INV-12345-000042.pdf' });
    for (const expected of [
      'Discharge summary',
      `Patient ${PATIENT}`,
      'Invoice number INV-12345-000042',
      'Admitted 5 Mar 2026, 08:30',
      'Discharged 9 Mar 2026, 09:00',
      // In on the 5th, out on the 9th: four days, as a ward counts them.
      'Length of stay 4 days',
      'Dr. Achieng Odhiambo (KMPDC A12345)',
      'Reason for discharge Recovered',
      '1 SHA-04-001 General ward inpatient day',
      '2 SHA-07-003 Chest X-ray',
      'CA40.Z Pneumonia, unspecified SHA-04-001',
      'CA23 — —',
      'Notes Wound clean; review in two weeks.',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('names a referral’s destination, in Kiswahili', async () => {
    const made = await makeDischargeSummary(
      summary({ language: 'sw', discharge: { at: '2026-03-05T20:00:00+03:00', reason: 'REFERRED', referredTo: { code: 'FID-00-000005-0', name: 'Kenyatta National Hospital' }, notes: null } }),
      fonts,
    );
    const { text } = await read(made.bytes);
    expect(made.fileName).toBe('muhtasari-wa-kuruhusiwa-INV-12345-000042.pdf');
    for (const expected of ['Muhtasari wa kuruhusiwa kutoka', `Mgonjwa ${PATIENT}`, 'Muda wa kulazwa siku 1', 'Amepelekwa hospitali nyingine: Kenyatta National Hospital (FID-00-000005-0)', 'Utambuzi']) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Maelezo');
  });

  it.each<[string, Partial<DischargeSummaryInput>, string]>([
    ['an outpatient visit', { visit: { ...visit, serviceType: 'OUTPATIENT' } }, 'visit.serviceType'],
    ['a referral without its destination', { discharge: { at: '2026-03-09T09:00:00+03:00', reason: 'REFERRED', referredTo: null, notes: null } }, 'discharge.referredTo'],
    ['a discharge before the admission', { discharge: { at: '2026-03-01T09:00:00+03:00', reason: 'RECOVERED', referredTo: null, notes: null } }, 'discharge.at'],
    ['no diagnosis', { diagnoses: [] }, 'diagnoses'],
  ])('refuses %s, naming the field', async (_label, overrides, field) => {
    const error = await makeDischargeSummary(summary(overrides), fonts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentInputError);
    expect((error as DocumentInputError).field).toBe(field);
  });
});

describe('the invoice from SHA’s preview of the claim', () => {
  const fixture = (name: string) => previewResponse.parse((JSON.parse(readFileSync(resolve(import.meta.dirname, '../../fixtures/wire', name), 'utf8')) as { body: unknown }).body);

  it('takes the lines SHA holds, with SHA’s totals, and the services standing on the claim (a retired one left out)', async () => {
    const preview = fixture('claims.preview.uat-retired.json');
    const paper = claimOnPaper(preview);
    expect(paper.services).toEqual([{ code: 'SHA-07-003', name: 'Chest X-ray' }]);
    expect(paper.lines).toEqual([
      { interventionCode: 'SHA-07-003', description: 'Chest X-ray, two views', chargeDate: '2025-07-01T11:10:00+03:00', quantity: 1, unitPriceKes: 2500, amountKes: 2500 },
    ]);
    const made = await makeInvoice(invoice({ visit: { ...visit, serviceType: 'OUTPATIENT', services: paper.services }, lines: paper.lines }), fonts);
    const { text } = await read(made.bytes);
    expect(text).toContain('1 1 Jul 2025 Chest X-ray, two views SHA-07-003 1 2,500.00 2,500.00');
    expect(made.totalKes).toBe(preview.totalAmount);
  });

  it('puts a line without its service on the claim’s one service, and refuses to guess among several', () => {
    const preview = fixture('claims.preview.portal-example.json');
    const withoutCode = { ...preview, lines: preview.lines.map((l) => ({ ...l, interventionCode: undefined })) };
    expect(claimOnPaper(withoutCode).lines.every((l) => l.interventionCode === 'SHA-12-001')).toBe(true);
    const several = {
      ...withoutCode,
      interventionStates: [
        { interventionCode: 'SHA-12-001', name: undefined, state: 'ACTIVE', active: true },
        { interventionCode: 'SHA-07-003', name: undefined, state: 'ACTIVE', active: true },
      ],
    };
    expect(() => claimOnPaper(several)).toThrow(DocumentInputError);
  });
});

describe('the typeface', () => {
  it('is DejaVu Sans unwrapped from the package’s WOFF: every table whole, its checksum as the WOFF records it', () => {
    const require = createRequire(import.meta.url);
    const woff = readFileSync(require.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff'));
    const font = Buffer.from(woffToTrueType(woff));
    const tables = font.readUInt16BE(4);
    expect(font.readUInt32BE(0)).toBe(woff.readUInt32BE(4));
    expect(tables).toBe(woff.readUInt16BE(12));
    const tagged = new Map<string, Buffer>();
    for (let i = 0; i < tables; i += 1) {
      const record = 12 + i * 16;
      const tag = font.toString('latin1', record, record + 4);
      const [checksum, offset, length] = [4, 8, 12].map((at) => font.readUInt32BE(record + at)) as [number, number, number];
      const data = Buffer.from(font.subarray(offset, offset + ((length + 3) & ~3)));
      // The head table's checksum is taken with its checkSumAdjustment at zero (OpenType, "head").
      if (tag === 'head') data.writeUInt32BE(0, 8);
      let sum = 0;
      for (let at = 0; at < data.length; at += 4) sum = (sum + data.readUInt32BE(at)) >>> 0;
      expect(sum, tag).toBe(checksum);
      tagged.set(tag, data);
    }
    expect(tagged.get('maxp')?.readUInt16BE(4)).toBeGreaterThan(6000);
    expect(() => woffToTrueType(new Uint8Array(Buffer.from('not a font at all, not at all, not at all......')))).toThrow(/WOFF/);
  });
});
