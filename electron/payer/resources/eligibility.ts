// Eligibility and benefits: who is covered, for what, how much is left, and which scheme pays.
import { defineOperation, jsonBody, nameOperations, queryOf } from '../operation';
import {
  eligibilityQuery,
  eligibilityResponse,
  interventionsQuery,
  interventionsResponse,
  pmfTariffsRequest,
  pmfTariffsResponse,
  pomsfBalanceQuery,
  pomsfBalanceResponse,
  setCoverRequest,
  setCoverResponse,
  subBenefitsQuery,
  subBenefitsResponse,
  utilizationQuery,
  utilizationResponse,
} from '../wire/eligibility';

export const eligibilityOperations = nameOperations('eligibility', {
  check: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/eligibility',
    safeToRepeat: true,
    request: eligibilityQuery,
    encode: (v) => ({ query: queryOf(v) }),
    response: { schema: eligibilityResponse },
  }),
  subBenefits: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/sub-benefits',
    safeToRepeat: true,
    request: subBenefitsQuery,
    encode: (v) => ({ query: queryOf(v) }),
    response: { schema: subBenefitsResponse },
  }),
  interventions: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/benefits/interventions',
    safeToRepeat: true,
    request: interventionsQuery,
    encode: (v) => ({ query: queryOf(v) }),
    response: { schema: interventionsResponse },
  }),
  utilization: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/benefits/utilization',
    safeToRepeat: true,
    request: utilizationQuery,
    encode: (v) => ({ query: queryOf(v) }),
    response: { schema: utilizationResponse },
  }),
  setCover: defineOperation({
    method: 'POST',
    path: '/api/v1/authorizations/covers',
    safeToRepeat: false,
    request: setCoverRequest,
    encode: (v) => ({ body: jsonBody(v) }),
    response: { schema: setCoverResponse },
  }),
  pomsfBalance: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/pomsf-balances',
    safeToRepeat: true,
    request: pomsfBalanceQuery,
    encode: (v) => ({ query: queryOf(v) }),
    response: { schema: pomsfBalanceResponse },
  }),
  resolvePmfTariffs: defineOperation({
    method: 'POST',
    path: '/api/v1/benefits/pmf-tariffs/resolve',
    // A POST that only computes: repeating it changes nothing.
    safeToRepeat: true,
    request: pmfTariffsRequest,
    encode: (v) => ({ body: jsonBody(v) }),
    response: { schema: pmfTariffsResponse },
  }),
});
