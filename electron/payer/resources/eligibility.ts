// Eligibility and benefits: who is covered, for what, how much is left, and which scheme pays.
import { defineOperation, nameOperations } from '../operation';
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
    response: { schema: eligibilityResponse },
  }),
  subBenefits: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/sub-benefits',
    safeToRepeat: true,
    request: subBenefitsQuery,
    response: { schema: subBenefitsResponse },
  }),
  interventions: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/benefits/interventions',
    safeToRepeat: true,
    request: interventionsQuery,
    response: { schema: interventionsResponse },
  }),
  utilization: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/benefits/utilization',
    safeToRepeat: true,
    request: utilizationQuery,
    response: { schema: utilizationResponse },
  }),
  setCover: defineOperation({
    method: 'POST',
    path: '/api/v1/authorizations/covers',
    safeToRepeat: false,
    request: setCoverRequest,
    response: { schema: setCoverResponse },
  }),
  pomsfBalance: defineOperation({
    method: 'GET',
    path: '/api/v1/patients/pomsf-balances',
    safeToRepeat: true,
    request: pomsfBalanceQuery,
    response: { schema: pomsfBalanceResponse },
  }),
  resolvePmfTariffs: defineOperation({
    method: 'POST',
    path: '/api/v1/benefits/pmf-tariffs/resolve',
    // A POST that only computes: repeating it changes nothing.
    safeToRepeat: true,
    request: pmfTariffsRequest,
    response: { schema: pmfTariffsResponse },
  }),
});
