// Registry look-ups (facilities, professionals, terminology, bed occupancy) and the shared
// health record (/shr/*). All reads.
import { defineOperation, nameOperations } from '../operation';
import {
  bedOccupancyQuery,
  bedOccupancyResponse,
  bundleResponse,
  conceptsQuery,
  conceptsResponse,
  facilitySearchQuery,
  facilitySearchResponse,
  observationsQuery,
  professionalsQuery,
  professionalsResponse,
  securityLabelsQuery,
  securityLabelsResponse,
  serviceRequestsQuery,
} from '../wire/lookups';

export const lookupsOperations = nameOperations('lookups', {
  searchFacilities: defineOperation({
    method: 'GET',
    path: '/api/v1/facilities/search',
    safeToRepeat: true,
    request: facilitySearchQuery,
    encode: (v) => ({ query: { identifier: v.identifier, 'identifier-type': v.identifier_type, name: v.name } }),
    response: { schema: facilitySearchResponse },
  }),
  searchProfessionals: defineOperation({
    method: 'GET',
    path: '/api/v1/professionals',
    safeToRepeat: true,
    // The schema upper-cases the regulator: UAT refuses kmpdc and accepts KMPDC.
    request: professionalsQuery,
    response: { schema: professionalsResponse },
  }),
  searchConcepts: defineOperation({
    method: 'GET',
    path: '/api/v1/clinical/concepts',
    safeToRepeat: true,
    request: conceptsQuery,
    response: { schema: conceptsResponse },
  }),
  bedOccupancy: defineOperation({
    method: 'GET',
    path: '/api/v1/facilities/{facility_code}/beds/occupancy',
    safeToRepeat: true,
    request: bedOccupancyQuery,
    encode: (v) => ({ params: { facility_code: v.facility_code } }),
    response: { schema: bedOccupancyResponse },
  }),
});

export const shrOperations = nameOperations('shr', {
  observations: defineOperation({
    method: 'GET',
    path: '/api/v1/shr/Observation',
    safeToRepeat: true,
    request: observationsQuery,
    encode: (v) => ({
      query: { subject: v.subject, page_token: v.page_token },
      headers: { 'x-consent-token': v.consent_token, 'x-puid': v.puid },
    }),
    response: { schema: bundleResponse },
  }),
  serviceRequests: defineOperation({
    method: 'GET',
    path: '/api/v1/shr/ServiceRequest',
    safeToRepeat: true,
    request: serviceRequestsQuery,
    encode: (v) => ({
      query: {
        'performer:Organization': v.performer_organization,
        'requester:Organization': v.requester_organization,
        status: v.status,
        count: v.count,
        page_token: v.page_token,
      },
    }),
    response: { schema: bundleResponse },
  }),
  securityLabels: defineOperation({
    method: 'GET',
    path: '/api/v1/shr/security-labels',
    safeToRepeat: true,
    request: securityLabelsQuery,
    encode: () => ({}),
    response: { schema: securityLabelsResponse },
  }),
});
