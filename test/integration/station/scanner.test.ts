// The scanner's folder through the station's bridge: only the administrator sets it (a full path),
// the nurse lists it and reads a listed file by its name, never by a path, and the activity record
// says a file was read without naming it (scans are often named after the patient).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StationProvisioning } from '../../../electron/station/provisioning';
import { startWorld, type World } from './harness';

let world: World;
let folder: string;
const NURSE = { name: 'Amina Wekesa', role: 'nurse' as const, pin: '4821' };
const IT_OFFICER = { name: 'IT officer', role: 'administrator' as const, pin: '771199' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n');

beforeAll(async () => {
  world = await startWorld();
  folder = mkdtempSync(join(tmpdir(), 'idhini-scanner-'));
  writeFileSync(join(folder, 'Wanjiru invoice.pdf'), PDF);
});
afterAll(async () => {
  await world.close();
  rmSync(folder, { recursive: true, force: true });
});

const provisioning = (settings: StationProvisioning['settings'] = {}, source: StationProvisioning['source'] = 'launcher'): StationProvisioning => ({ source, settings, staff: [NURSE, IT_OFFICER] });

describe("the scanner's folder", () => {
  it('is set by the administrator only, as a full path, and listed and read by the nurse by a name of the listing', async () => {
    const s = await world.station({ extra: { provisioning: provisioning() } });
    await s.ok('station.unlock', { pin: NURSE.pin });
    expect(await s.ok('scanner.list', {})).toMatchObject({ folder: 'not-set', files: [] });
    expect(await s.refused('scanner.read', { name: 'Wanjiru invoice.pdf' })).toMatchObject({ code: 'SETTINGS_MISSING' });
    expect(await s.refused('settings.update', { scannerFolder: folder })).toMatchObject({ code: 'ADMINISTRATOR_REQUIRED', details: { field: 'scannerFolder' } });

    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect(await s.refused('settings.update', { scannerFolder: 'Scans' })).toMatchObject({ code: 'VALIDATION', details: { field: 'scannerFolder' } });
    expect((await s.ok('settings.update', { scannerFolder: folder })).scannerFolder).toBe(folder);

    await s.ok('station.unlock', { pin: NURSE.pin });
    const listing = await s.ok('scanner.list', {});
    expect(listing).toMatchObject({ folder: 'ready', files: [{ name: 'Wanjiru invoice.pdf', contentType: 'application/pdf', size: PDF.length }] });
    const read = await s.ok('scanner.read', { name: 'Wanjiru invoice.pdf' });
    expect(Buffer.from(read.dataBase64, 'base64')).toEqual(PDF);
    // A path is refused before the core sees it; a name not in the folder is not found.
    expect(await s.refused('scanner.read', { name: '../etc/passwd' })).toMatchObject({ code: 'VALIDATION', details: { field: 'name' } });
    expect(await s.refused('scanner.read', { name: '..' })).toMatchObject({ code: 'VALIDATION' });
    expect(await s.refused('scanner.read', { name: 'passwd' })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'name' } });

    const audit = await s.ok('audit.read', { action: 'scanner.read', page: 1, pageSize: 10 });
    expect(audit.items).toEqual([expect.objectContaining({ action: 'scanner.read', outcome: 'succeeded' })]);
    expect(JSON.stringify(audit)).not.toContain('Wanjiru');
  });

  it('may be fixed by the provisioning file', async () => {
    const s = await world.station({ extra: { provisioning: provisioning({ scannerFolder: folder }, 'file') } });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect(await s.ok('settings.get', {})).toMatchObject({ scannerFolder: folder, provisioned: ['scannerFolder'] });
    expect(await s.refused('settings.update', { scannerFolder: null })).toMatchObject({ code: 'PROVISIONED', details: { field: 'scannerFolder' } });
  });
});
