// The scanner's folder read from the main side: only PDF, JPEG and PNG files, newest first; a name
// is read only when a fresh listing has it, and no name or link leads outside the folder — by the
// computer's own path rules, Windows' drive letters and shares as much as POSIX paths.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scannerFolderPath } from '../../../electron/contract';
import { isInside, listScans, MAX_SCAN_BYTES, readScan } from '../../../electron/station/scanner-folder';

const NOW = '2026-11-25T20:00:00.000Z';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let root: string;
let folder: string;

function save(name: string, bytes: Buffer, minutesAgo: number): void {
  const file = path.join(folder, name);
  writeFileSync(file, bytes);
  const at = new Date(Date.parse(NOW) - minutesAgo * 60_000);
  utimesSync(file, at, at);
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'idhini-scans-'));
  folder = path.join(root, 'Scans');
  mkdirSync(folder);
  writeFileSync(path.join(root, 'outside.pdf'), PDF);
  save('invoice-0001.pdf', PDF, 30);
  save('lab-0002.PNG', PNG, 5);
  save('photo-0003.jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 10);
  save('notes.txt', Buffer.from('not a scan'), 1);
  save('odd\tname.pdf', PDF, 1);
  save('._invoice-0001.pdf', PDF, 1);
  save('big.pdf', Buffer.concat([PDF, Buffer.alloc(MAX_SCAN_BYTES)]), 40);
  mkdirSync(path.join(folder, 'older.pdf'));
  symlinkSync(path.join(root, 'outside.pdf'), path.join(folder, 'escape.pdf'));
  symlinkSync(path.join(folder, 'invoice-0001.pdf'), path.join(folder, 'same-invoice.pdf'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the scanner folder setting', () => {
  it('takes a full path on Windows or Linux and refuses a relative one', () => {
    for (const good of ['C:\\Users\\Public\\Scans', 'D:/Scans', '\\\\scanner-pc\\Scans', '/srv/scans', '/home/nurse/Scans']) expect(scannerFolderPath.safeParse(good).success, good).toBe(true);
    for (const bad of ['Scans', '..\\Scans', './scans', 'C:Scans', '\\\\server', '/srv/sc\nans']) expect(scannerFolderPath.safeParse(bad).success, bad).toBe(false);
  });
});

describe('inside the folder', () => {
  it('by Windows rules: drive letters, shares, and a name that merely starts with two dots', () => {
    expect(isInside('C:\\Users\\Public\\Scans', 'C:\\Users\\Public\\Scans\\a.pdf', path.win32)).toBe(true);
    expect(isInside('C:\\Users\\Public\\Scans', 'c:\\users\\public\\scans\\a.pdf', path.win32)).toBe(true);
    expect(isInside('C:\\Users\\Public\\Scans', 'C:\\Users\\Public\\Scans\\..scan.pdf', path.win32)).toBe(true);
    expect(isInside('C:\\Users\\Public\\Scans', 'C:\\Users\\Public\\Secret.pdf', path.win32)).toBe(false);
    expect(isInside('C:\\Users\\Public\\Scans', 'D:\\Scans\\a.pdf', path.win32)).toBe(false);
    expect(isInside('\\\\scanner-pc\\Scans', '\\\\other-pc\\Scans\\a.pdf', path.win32)).toBe(false);
    expect(isInside('C:\\Users\\Public\\Scans', 'C:\\Users\\Public\\Scans', path.win32)).toBe(false);
  });

  it('by POSIX rules', () => {
    expect(isInside('/srv/scans', '/srv/scans/a.pdf', path.posix)).toBe(true);
    expect(isInside('/srv/scans', '/srv/scans2/a.pdf', path.posix)).toBe(false);
    expect(isInside('/srv/scans', '/etc/passwd', path.posix)).toBe(false);
  });
});

describe('listing', () => {
  it('lists the PDF, JPEG and PNG files newest first, leaving out other files, hidden ones, folders and links that lead outside', async () => {
    const listing = await listScans(folder, NOW);
    expect(listing.folder).toBe('ready');
    expect(listing.listedAt).toBe(NOW);
    expect(listing.files.map((f) => f.name)).toEqual(['lab-0002.PNG', 'photo-0003.jpeg', 'invoice-0001.pdf', 'same-invoice.pdf', 'big.pdf']);
    expect(listing.files[0]).toEqual({ name: 'lab-0002.PNG', contentType: 'image/png', size: PNG.length, modifiedAt: new Date(Date.parse(NOW) - 5 * 60_000).toISOString() });
  });

  it('says when no folder is set, when it cannot be found, and when it is a file', async () => {
    expect(await listScans(null, NOW)).toEqual({ folder: 'not-set', files: [], listedAt: NOW });
    expect((await listScans(path.join(root, 'not-there'), NOW)).folder).toBe('missing');
    expect((await listScans(path.join(root, 'outside.pdf'), NOW)).folder).toBe('missing');
    expect((await listScans('Scans', NOW)).folder).toBe('missing');
  });

  it('sees a file the scanner saved after the last listing at the next one', async () => {
    save('new-0004.pdf', PDF, 0);
    expect((await listScans(folder, NOW)).files[0]?.name).toBe('new-0004.pdf');
    rmSync(path.join(folder, 'new-0004.pdf'));
  });
});

describe('reading', () => {
  it('reads a listed file, and a link inside the folder as the file it is', async () => {
    expect(await readScan(folder, 'invoice-0001.pdf')).toEqual({ name: 'invoice-0001.pdf', contentType: 'application/pdf', bytes: PDF });
    expect((await readScan(folder, 'same-invoice.pdf')).bytes).toEqual(PDF);
  });

  it('refuses what is not in the listing now: a link outside, a path, a file gone, a folder', async () => {
    for (const name of ['escape.pdf', '../outside.pdf', `..${path.sep}outside.pdf`, path.join(root, 'outside.pdf'), 'notes.txt', 'older.pdf', 'gone.pdf']) {
      await expect(readScan(folder, name), name).rejects.toMatchObject({ error: { code: 'NOT_FOUND', details: { field: 'name' } } });
    }
  });

  it('refuses a file larger than the station sends, and reads nothing without a folder', async () => {
    await expect(readScan(folder, 'big.pdf')).rejects.toMatchObject({ error: { code: 'VALIDATION', details: { field: 'name' } } });
    await expect(readScan(null, 'invoice-0001.pdf')).rejects.toMatchObject({ error: { code: 'SETTINGS_MISSING' } });
  });
});
