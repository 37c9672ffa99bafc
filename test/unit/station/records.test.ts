// Sealed records that survive an upgrade. Every record 0854e29 (2026-11-28, before records carried
// a version) sealed in its own integration tests reads through today's schemas as version 1 of its
// kind, unchanged; today's station writes each with its version beside it and reads it back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { patientRecord } from '../../../electron/station/patients/stored';
import { envelopeOf, unwrap } from '../../../electron/station/versioned';
import { callRecord, readWorkflow, workflowRecords, workflowToKeep } from '../../../electron/station/workflows/records';
import type { AnyWorkflow } from '../../../electron/station/workflows/types';

const CORPUS = path.resolve(import.meta.dirname, '../../fixtures/records/2026-11-28-0854e29.jsonl');
const corpus = readFileSync(CORPUS, 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as { type: 'workflow' | 'call' | 'patient'; record: Record<string, unknown> });
const workflows = corpus.filter((e) => e.type === 'workflow').map((e) => e.record);
const kinds = Object.keys(workflowRecords);

describe('the records of 0854e29, kept before versions', () => {
  it('hold every kind of workflow, journal calls and patients', () => {
    expect(new Set(workflows.map((w) => w.kind))).toEqual(new Set(kinds));
    expect(corpus.filter((e) => e.type === 'call').length).toBeGreaterThan(10);
    expect(corpus.filter((e) => e.type === 'patient').length).toBeGreaterThan(0);
  });

  it.each(kinds)('each %s record reads as version 1 of its kind, unchanged', (kind) => {
    const ofKind = workflows.filter((w) => w.kind === kind);
    expect(ofKind.length).toBeGreaterThan(5);
    for (const record of ofKind) {
      const { version, record: unwrapped } = unwrap(record);
      expect(version).toBe(1);
      const read = readWorkflow(kind, unwrapped);
      expect(read, `${kind} ${String(record.state)}: ${read.ok ? '' : read.detail}`).toMatchObject({ ok: true, version: 1 });
      if (read.ok) expect(read.value).toEqual(record);
    }
  });

  it('each journal call and looked-up patient reads as version 1', () => {
    for (const e of corpus.filter((c) => c.type === 'call')) expect(callRecord.read(1, e.record)).toMatchObject({ ok: true, value: e.record });
    for (const e of corpus.filter((c) => c.type === 'patient')) expect(patientRecord.read(1, e.record)).toMatchObject({ ok: true, value: e.record });
  });

  it.each(kinds)('a %s record is written with its version and read back the same', (kind) => {
    for (const record of workflows.filter((w) => w.kind === kind)) {
      const kept = JSON.parse(JSON.stringify(workflowToKeep(record as unknown as AnyWorkflow))) as unknown;
      const { version, record: inner } = unwrap(kept);
      expect(version).toBe(workflowRecords[kind as AnyWorkflow['kind']].current);
      expect(readWorkflow(kind, inner)).toMatchObject({ ok: true, value: record });
    }
  });

  it('refuses to write a record its kind’s schema does not describe', () => {
    const consent = workflows.find((w) => w.kind === 'consent')!;
    expect(() => workflowToKeep({ ...consent, data: { ...(consent.data as object), stray: 1 } } as unknown as AnyWorkflow)).toThrow(/stray/);
  });

  it('answers a record of another kind than its row, or of a kind it does not know, without reading it as one', () => {
    const visit = workflows.find((w) => w.kind === 'visit')!;
    expect(readWorkflow('consent', visit)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(readWorkflow('ward-round', envelopeOf(1, visit))).toMatchObject({ ok: false, reason: 'newer' });
  });
});
