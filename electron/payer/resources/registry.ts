// The client registry: finding the patient whose id every later call carries.
import { defineOperation, nameOperations, queryOf } from '../operation';
import { patientQuery, patientResponse } from '../wire/registry';

export const registryOperations = nameOperations('registry', {
  findPatient: defineOperation({
    method: 'GET',
    path: '/api/v1/patients',
    safeToRepeat: true,
    request: patientQuery,
    encode: (v) => ({ query: queryOf(v) }),
    response: { schema: patientResponse },
  }),
});
