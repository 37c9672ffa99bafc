// The papers waiting in the data folder: sealed, found again as they were, and refused when gone,
// altered or sealed under another key — never handed back different from what was held.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { PapersWaiting } from '../../../electron/station/papers-waiting';
import { createSealer } from '../../../electron/station/sealing';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function store(key = randomBytes(32)) {
  const dir = mkdtempSync(join(tmpdir(), 'idhini-papers-'));
  dirs.push(dir);
  return { dir, key, papers: new PapersWaiting({ dir, sealer: createSealer(key) }) };
}

const pdf = { documentType: 'MEDICAL_REPORT', title: 'Report', fileName: 'report.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 report') };
const png = { documentType: 'IMAGING_REPORT', title: 'Scan', fileName: 'scan.png', contentType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };

describe('PapersWaiting', () => {
  it('holds papers sealed and gives them back as they were, in order', async () => {
    const { dir, papers } = store();
    const held = await papers.hold('wf_abc', [pdf, png]);
    expect(held.map((h) => [h.fileName, h.size])).toEqual([['report.pdf', pdf.data.length], ['scan.png', png.data.length]]);
    expect(readFileSync(join(dir, 'wf_abc', '0.sealed'), 'latin1')).not.toContain('%PDF');
    const taken = await papers.take('wf_abc', held);
    expect(taken?.map((p) => Buffer.from(p.data).toString('hex'))).toEqual([pdf.data.toString('hex'), png.data.toString('hex')]);
  });

  it('a request given again replaces the papers held before; none given removes them', async () => {
    const { dir, papers } = store();
    await papers.hold('wf_abc', [pdf, png]);
    const again = await papers.hold('wf_abc', [png]);
    expect(existsSync(join(dir, 'wf_abc', '1.sealed'))).toBe(false);
    expect((await papers.take('wf_abc', again))?.[0]?.fileName).toBe('scan.png');
    expect(await papers.hold('wf_abc', [])).toEqual([]);
    expect(existsSync(join(dir, 'wf_abc'))).toBe(false);
  });

  it('answers null for a paper gone, altered, or sealed under another key', async () => {
    const first = store();
    const held = await first.papers.hold('wf_abc', [pdf]);
    // Another file sealed under the same key in its place: opens, but is not the paper held.
    const other = await first.papers.hold('wf_other', [{ ...pdf, data: Buffer.from('%PDF-1.4 something else') }]);
    expect(other[0]?.sha256).not.toBe(held[0]?.sha256);
    writeFileSync(join(first.dir, 'wf_abc', '0.sealed'), readFileSync(join(first.dir, 'wf_other', '0.sealed')));
    expect(await first.papers.take('wf_abc', held)).toBeNull();
    // The journal key replaced: the old papers cannot be opened.
    const held2 = await first.papers.hold('wf_abc', [pdf]);
    const rekeyed = new PapersWaiting({ dir: first.dir, sealer: createSealer(randomBytes(32)) });
    expect(await rekeyed.take('wf_abc', held2)).toBeNull();
    await first.papers.release('wf_abc');
    expect(await first.papers.take('wf_abc', held2)).toBeNull();
  });

  it('never names a folder from anything but a workflow id, and keeps only the workflows still waiting', async () => {
    const { dir, papers } = store();
    await expect(papers.hold('../escape', [pdf])).rejects.toThrow();
    await expect(papers.release('a/b')).rejects.toThrow();
    await papers.hold('wf_keep', [pdf]);
    await papers.hold('wf_done', [pdf]);
    mkdirSync(join(dir, 'wf_crashed'));
    await papers.keepOnly(new Set(['wf_keep']));
    expect(existsSync(join(dir, 'wf_keep'))).toBe(true);
    expect(existsSync(join(dir, 'wf_done'))).toBe(false);
    expect(existsSync(join(dir, 'wf_crashed'))).toBe(false);
  });
});
