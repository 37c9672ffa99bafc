// Status-callback registration. A desktop station cannot receive callbacks from the internet (it
// polls); these exist for facilities with a reachable endpoint and for the sandbox's tests.
import { defineOperation, jsonBody, nameOperations, queryOf } from '../operation';
import { confirmation } from '../wire/common';
import {
  createEndpointRequest,
  createOperationRequest,
  deleteEndpointRequest,
  endpoint,
  endpointsResponse,
  listEndpointsQuery,
  operationResponse,
  updateEndpointRequest,
} from '../wire/callbacks';

export const callbacksOperations = nameOperations('callbacks', {
  listEndpoints: defineOperation({
    method: 'GET',
    path: '/api/v1/tenants/{tenant}/endpoints',
    safeToRepeat: true,
    request: listEndpointsQuery,
    encode: (v) => ({ params: { tenant: v.tenant }, query: queryOf(v, 'tenant') }),
    response: { schema: endpointsResponse },
  }),
  createEndpoint: defineOperation({
    method: 'POST',
    path: '/api/v1/tenants/{tenant}/endpoints',
    safeToRepeat: false,
    request: createEndpointRequest,
    encode: (v) => ({ params: { tenant: v.tenant }, body: jsonBody(v, 'tenant') }),
    response: { schema: endpoint },
  }),
  updateEndpoint: defineOperation({
    method: 'PATCH',
    path: '/api/v1/tenants/endpoints/{endpoint_id}',
    safeToRepeat: false,
    request: updateEndpointRequest,
    encode: (v) => ({ params: { endpoint_id: v.endpoint_id }, body: jsonBody(v, 'endpoint_id') }),
    response: { schema: endpoint },
  }),
  deleteEndpoint: defineOperation({
    method: 'DELETE',
    path: '/api/v1/tenants/endpoints/{endpoint_id}',
    safeToRepeat: false,
    request: deleteEndpointRequest,
    encode: (v) => ({ params: { endpoint_id: v.endpoint_id } }),
    response: { schema: confirmation, emptyBody: true, textBody: true },
  }),
  createOperation: defineOperation({
    method: 'POST',
    path: '/api/v1/tenants/{tenant}/endpoints/{endpoint_id}/operations',
    safeToRepeat: false,
    request: createOperationRequest,
    encode: (v) => ({ params: { tenant: v.tenant, endpoint_id: v.endpoint_id }, body: jsonBody(v, 'tenant', 'endpoint_id') }),
    response: { schema: operationResponse },
  }),
});
