// The concept search's answer is shown by no source: readConcepts reads a list of codes wherever
// the shapes seen elsewhere put one, and anything else as no concepts (the nurse types the code).
import { describe, expect, it } from 'vitest';
import { readConcepts } from '../../../electron/payer';

describe('readConcepts', () => {
  it('reads {count, results[]} (the sandbox), a bare list (the other /clinical/* searches) and {data[]}', () => {
    expect(readConcepts({ count: 1, results: [{ code: '1F40.Z', display: 'Malaria' }] })).toEqual([{ code: '1F40.Z', display: 'Malaria' }]);
    expect(readConcepts([{ code: 'BA00', display: 'Essential hypertension', system: 'ICD-11' }])).toEqual([{ code: 'BA00', display: 'Essential hypertension' }]);
    expect(readConcepts({ data: [{ code: 'CA23', name: 'Asthma' }] })).toEqual([{ code: 'CA23', display: 'Asthma' }]);
  });

  it('takes a title when there is no display, and keeps a code without either', () => {
    expect(readConcepts([{ code: 'MD12', title: 'Cough' }, { code: 'MG26' }])).toEqual([
      { code: 'MD12', display: 'Cough' },
      { code: 'MG26', display: undefined },
    ]);
  });

  it('skips entries without a code, and reads any other answer as none', () => {
    expect(readConcepts([{ display: 'no code' }, 'text', null, { code: '5A11' }])).toEqual([{ code: '5A11', display: undefined }]);
    expect(readConcepts({ message: 'ok' })).toEqual([]);
    expect(readConcepts('Malaria')).toEqual([]);
    expect(readConcepts(null)).toEqual([]);
  });
});
