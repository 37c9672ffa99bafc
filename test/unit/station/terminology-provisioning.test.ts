// The terminology's owner and source for medicines and diagnoses, as a facility's IT officer writes
// them in the provisioning file: both or neither for each kind, nothing that could not go on a query.
import { describe, expect, it } from 'vitest';
import { ProvisioningError, readProvisioningFile } from '../../../electron/station/provisioning';

const file = (body: Record<string, unknown>) => () => JSON.stringify({ version: 1, ...body });

describe('the terminology in the provisioning file', () => {
  it('is read per kind, a kind not given to the facility left null', () => {
    const terminology = { medicines: { owner: 'MOH-PPB', source: 'HPT' }, diagnoses: null };
    expect(readProvisioningFile('p.json', file({ terminology }))?.settings).toEqual({ terminology });
  });

  it('refuses an owner without a source, naming where', () => {
    const read = () => readProvisioningFile('p.json', file({ terminology: { medicines: { owner: 'MOH-PPB' }, diagnoses: null } }));
    expect(read).toThrow(ProvisioningError);
    expect(read).toThrow(/terminology\.medicines\.source/);
  });

  it('refuses a value with spaces or query characters, and a kind left out', () => {
    expect(() => readProvisioningFile('p.json', file({ terminology: { medicines: { owner: 'MOH PPB', source: 'HPT' }, diagnoses: null } }))).toThrow(/owner/);
    expect(() => readProvisioningFile('p.json', file({ terminology: { medicines: { owner: 'MOH', source: 'HPT&x=1' }, diagnoses: null } }))).toThrow(/source/);
    expect(() => readProvisioningFile('p.json', file({ terminology: { medicines: null } }))).toThrow(/terminology\.diagnoses/);
  });
});
