// The documents' typeface: DejaVu Sans (regular and bold), from the @fontsource/dejavu-sans package.
// Its full glyph set (about 6 000 glyphs: Latin with every accent, ’ and ‘, €, Greek, Cyrillic) covers
// Kiswahili and the names of patients of every community (Wanjirũ, Kĩmani), where the PDF standard
// fonts stop at Latin-1. Only the glyphs a document uses are embedded.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

export interface DocumentFonts {
  /** TrueType (sfnt) bytes. */
  readonly regular: Uint8Array;
  readonly bold: Uint8Array;
}

/**
 * A WOFF 1.0 font as the TrueType it wraps (W3C WOFF 1.0, §3–5: a header, a table directory,
 * each table zlib-compressed unless that would not shrink it). The package ships WOFF; PDFKit's
 * font engine reads WOFF too, but inflates its tables in plain JavaScript on every glyph it
 * subsets, some thirty times slower than reading the TrueType.
 */
export function woffToTrueType(woff: Uint8Array): Uint8Array {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (input.length < 44 || input.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF 1.0 font (no wOFF signature)');
  const flavor = input.readUInt32BE(4);
  const numTables = input.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i += 1) {
    const entry = 44 + i * 20;
    const [tag, offset, compLength, origLength, checksum] = [0, 4, 8, 12, 16].map((at) => input.readUInt32BE(entry + at)) as [number, number, number, number, number];
    const stored = input.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : Buffer.from(stored);
    if (data.length !== origLength) throw new Error(`WOFF table ${i} inflates to ${data.length} bytes, not ${origLength}`);
    tables.push({ tag, checksum, data });
  }
  const pad = (n: number) => (n + 3) & ~3;
  const headerLength = 12 + numTables * 16;
  const out = Buffer.alloc(headerLength + tables.reduce((n, t) => n + pad(t.data.length), 0));
  const power = 2 ** Math.floor(Math.log2(numTables));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(Math.log2(power), 8);
  out.writeUInt16BE(numTables * 16 - power * 16, 10);
  let offset = headerLength;
  tables.forEach((t, i) => {
    const record = 12 + i * 16;
    out.writeUInt32BE(t.tag, record);
    out.writeUInt32BE(t.checksum, record + 4);
    out.writeUInt32BE(offset, record + 8);
    out.writeUInt32BE(t.data.length, record + 12);
    t.data.copy(out, offset);
    offset += pad(t.data.length);
  });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

let loaded: DocumentFonts | undefined;

/**
 * Reads the two font files from node_modules once. A host that bundles the station (the Electron
 * shell's esbuild bundle) passes the fonts in itself instead, read from wherever it ships them.
 */
export function loadDocumentFonts(): DocumentFonts {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    const file = (weight: 400 | 700) => woffToTrueType(readFileSync(require.resolve(`@fontsource/dejavu-sans/files/dejavu-sans-latin-${weight}-normal.woff`)));
    loaded = { regular: file(400), bold: file(700) };
  }
  return loaded;
}
