// An A4 page set on PDFKit: a header, labelled facts, a table that breaks across pages with its
// header repeated, paragraphs, and a footer with "page n of m" on every page. Text is set in DejaVu
// Sans, embedded as a subset, so Kiswahili and the names of the wards' patients (ĩ, ũ, ’ …) print
// as written and come back out of the file as text.
import PDFDocument from 'pdfkit';
import type { DocumentFonts } from './fonts';
import type { DocumentLanguage } from './input';

const MARGIN = 48;
const FOOTER_SPACE = 36;
const INK = '#1a1a1a';
const MUTED = '#555555';
const RULE = '#9a9a9a';
const SHADE = '#ececec';

export interface Column {
  readonly header: string;
  /** Share of the text width. */
  readonly width: number;
  readonly align?: 'left' | 'right';
}

export interface Row {
  readonly cells: readonly string[];
  /** A subtotal or total row: bold, ruled above. */
  readonly emphasis?: boolean;
}

export interface SheetOptions {
  readonly fonts: DocumentFonts;
  readonly language: DocumentLanguage;
  /** Fixed, from the input: the PDF's creation date, so the same input gives the same bytes. */
  readonly createdAt: Date;
  readonly title: string;
  readonly author: string;
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export class Sheet {
  private readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly ended: Promise<void>;

  constructor(options: SheetOptions) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, bottom: MARGIN + FOOTER_SPACE, left: MARGIN, right: MARGIN },
      autoFirstPage: false,
      bufferPages: true,
      // No standard font: every glyph comes from the embedded DejaVu.
      font: '',
      lang: options.language,
      displayTitle: true,
      info: { Title: options.title, Author: options.author, Creator: 'Idhini', Producer: 'Idhini', CreationDate: options.createdAt, ModDate: options.createdAt },
    });
    this.doc.registerFont('regular', asBuffer(options.fonts.regular));
    this.doc.registerFont('bold', asBuffer(options.fonts.bold));
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.ended = new Promise((resolve, reject) => {
      this.doc.on('end', resolve);
      this.doc.on('error', reject);
    });
    this.doc.addPage();
    this.doc.font('regular').fontSize(10).fillColor(INK);
  }

  private get left(): number {
    return this.doc.page.margins.left;
  }

  private get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  private ensureRoom(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  /** The facility at the top left, the document's title at the top right. */
  header(facility: string, facilityLine: string, title: string): void {
    const top = this.doc.y;
    const titleWidth = this.width * 0.45;
    this.doc.font('bold').fontSize(18).fillColor(INK).text(title, this.left + this.width - titleWidth, top, { width: titleWidth, align: 'right' });
    const afterTitle = this.doc.y;
    this.doc.font('bold').fontSize(13).text(facility, this.left, top, { width: this.width * 0.55 });
    this.doc.font('regular').fontSize(9).fillColor(MUTED).text(facilityLine, this.left, this.doc.y + 2, { width: this.width * 0.55 });
    this.doc.y = Math.max(this.doc.y, afterTitle) + 10;
    this.rule(1.2);
    this.doc.y += 10;
    this.doc.fillColor(INK).fontSize(10);
  }

  /** Label and value pairs in two columns. */
  facts(pairs: readonly (readonly [label: string, value: string])[]): void {
    const half = this.width / 2;
    const labelWidth = half * 0.42;
    for (let i = 0; i < pairs.length; i += 2) {
      const row = pairs.slice(i, i + 2);
      const heights = row.map(([label, value]) =>
        Math.max(this.measure(label, labelWidth - 6, 'regular', 9), this.measure(value, half - labelWidth - 8, 'bold', 10)),
      );
      const height = Math.max(...heights) + 5;
      this.ensureRoom(height);
      const y = this.doc.y;
      row.forEach(([label, value], column) => {
        const x = this.left + column * half;
        this.doc.font('regular').fontSize(9).fillColor(MUTED).text(label, x, y + 1, { width: labelWidth - 6 });
        this.doc.font('bold').fontSize(10).fillColor(INK).text(value, x + labelWidth, y, { width: half - labelWidth - 8 });
      });
      this.doc.y = y + height;
    }
    this.doc.y += 6;
  }

  heading(text: string): void {
    this.ensureRoom(40);
    this.doc.y += 4;
    this.doc.font('bold').fontSize(11).fillColor(INK).text(text, this.left, this.doc.y, { width: this.width });
    this.doc.y += 4;
  }

  paragraph(text: string): void {
    const height = this.measure(text, this.width, 'regular', 10);
    this.ensureRoom(Math.min(height, 60));
    this.doc.font('regular').fontSize(10).fillColor(INK).text(text, this.left, this.doc.y, { width: this.width });
    this.doc.y += 4;
  }

  /** A table whose rows wrap within their cells and break across pages, the header repeated. */
  table(columns: readonly Column[], rows: readonly Row[]): void {
    const total = columns.reduce((n, c) => n + c.width, 0);
    const widths = columns.map((c) => (c.width / total) * this.width);
    const xs = widths.map((_, i) => this.left + widths.slice(0, i).reduce((n, w) => n + w, 0));
    const pad = 4;
    const drawHeader = () => {
      const height = Math.max(...columns.map((c, i) => this.measure(c.header, (widths[i] ?? 0) - 2 * pad, 'bold', 9))) + 2 * pad;
      this.ensureRoom(height + 20);
      const y = this.doc.y;
      this.doc.rect(this.left, y, this.width, height).fill(SHADE);
      columns.forEach((c, i) => {
        this.doc.font('bold').fontSize(9).fillColor(INK).text(c.header, (xs[i] ?? 0) + pad, y + pad, { width: (widths[i] ?? 0) - 2 * pad, align: c.align ?? 'left' });
      });
      this.doc.y = y + height;
    };
    drawHeader();
    for (const row of rows) {
      const font = row.emphasis === true ? 'bold' : 'regular';
      const height = Math.max(...row.cells.map((cell, i) => this.measure(cell, (widths[i] ?? 0) - 2 * pad, font, 9))) + 2 * pad;
      if (this.doc.y + height > this.bottom) {
        this.doc.addPage();
        drawHeader();
      }
      const y = this.doc.y;
      if (row.emphasis === true) this.line(this.left, y, this.left + this.width, y, 0.8);
      row.cells.forEach((cell, i) => {
        this.doc.font(font).fontSize(9).fillColor(INK).text(cell, (xs[i] ?? 0) + pad, y + pad, { width: (widths[i] ?? 0) - 2 * pad, align: columns[i]?.align ?? 'left' });
      });
      this.doc.y = y + height;
      if (row.emphasis !== true) this.line(this.left, this.doc.y, this.left + this.width, this.doc.y, 0.3);
    }
    this.doc.y += 8;
  }

  /** A total under the table, right-aligned and large. */
  total(label: string, value: string): void {
    this.ensureRoom(30);
    const y = this.doc.y;
    this.rule(1.2);
    this.doc.font('bold').fontSize(12).fillColor(INK).text(label, this.left, y + 6, { width: this.width * 0.6 });
    this.doc.font('bold').fontSize(12).text(value, this.left + this.width * 0.5, y + 6, { width: this.width * 0.5, align: 'right' });
    this.doc.y = Math.max(this.doc.y, y + 24);
  }

  /** Writes the footer on every page and returns the file. */
  async finish(footer: (page: number, pages: number) => readonly string[]): Promise<Uint8Array<ArrayBuffer>> {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = start; i < start + count; i += 1) {
      this.doc.switchToPage(i);
      // The footer sits in the bottom margin: let PDFKit write there without starting a page.
      const margins = this.doc.page.margins;
      const keep = margins.bottom;
      margins.bottom = 0;
      const lines = footer(i - start + 1, count);
      let y = this.doc.page.height - MARGIN - FOOTER_SPACE + 14;
      this.line(this.left, y - 4, this.left + this.width, y - 4, 0.3);
      for (const text of lines) {
        this.doc.font('regular').fontSize(8).fillColor(MUTED).text(text, this.left, y, { width: this.width, lineBreak: false, align: 'left' });
        y += 11;
      }
      margins.bottom = keep;
    }
    this.doc.end();
    await this.ended;
    return new Uint8Array(Buffer.concat(this.chunks));
  }

  private measure(text: string, width: number, font: 'regular' | 'bold', size: number): number {
    return this.doc.font(font).fontSize(size).heightOfString(text, { width });
  }

  private rule(weight: number): void {
    this.line(this.left, this.doc.y, this.left + this.width, this.doc.y, weight);
  }

  private line(x1: number, y1: number, x2: number, y2: number, weight: number): void {
    this.doc.save().moveTo(x1, y1).lineTo(x2, y2).lineWidth(weight).strokeColor(RULE).stroke().restore();
  }
}
