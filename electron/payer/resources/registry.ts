// The client registry: finding the patient whose id every later call carries.
import { defineOperation, nameOperations } from '../operation';
import { patientQuery, patientResponse } from '../wire/registry';

export const registryOperations = nameOperations('registry', {
  findPatient: defineOperation({
    method: 'GET',
    path: '/api/v1/patients',
    safeToRepeat: true,
    request: patientQuery,
    response: { schema: patientResponse },
  }),
});
