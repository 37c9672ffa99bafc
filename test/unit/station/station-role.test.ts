// The pharmacy window's station is provisioned as such: the provisioning file names the role, and
// nothing else is taken for it.
import { describe, expect, it } from 'vitest';
import { ProvisioningError, readProvisioningFile } from '../../../electron/station/provisioning';

const file = (body: Record<string, unknown>) => () => JSON.stringify({ version: 1, ...body });

describe('the station role in the provisioning file', () => {
  it('is read as the pharmacy window or a ward', () => {
    expect(readProvisioningFile('p.json', file({ stationRole: 'pharmacy' }))?.settings).toEqual({ stationRole: 'pharmacy' });
    expect(readProvisioningFile('p.json', file({ stationRole: 'ward' }))?.settings).toEqual({ stationRole: 'ward' });
  });

  it('refuses any other role, naming the key', () => {
    expect(() => readProvisioningFile('p.json', file({ stationRole: 'laboratory' }))).toThrow(ProvisioningError);
    expect(() => readProvisioningFile('p.json', file({ stationRole: 'laboratory' }))).toThrow(/stationRole/);
  });
});
