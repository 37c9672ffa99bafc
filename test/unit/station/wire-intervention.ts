// An intervention as the exchange client hands it to the station, with plain defaults: a
// fee-for-service outpatient intervention of SHIF; a test overrides what it is about.
import type { Intervention } from '../../../electron/payer';

export function wireIntervention(code: string, over: Partial<Intervention> = {}): Intervention {
  return {
    code,
    name: code,
    paymentMechanism: 'FEE_FOR_SERVICE',
    needsPreauth: false,
    needsManualPreauthApproval: false,
    scenario: 'fee-for-service',
    accessPoint: 'OP',
    needsDoctorAuthorization: false,
    applicableDocumentTypes: [],
    requiredPreauthDocumentTypes: [],
    protocolCode: undefined,
    applicableTariff: undefined,
    kephLevelTariff: undefined,
    tariff: 1000,
    fund: 'SHIF',
    ...over,
  };
}
