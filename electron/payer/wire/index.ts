// Every wire schema of the exchange: strict request schemas (what the client sends) and lenient
// response schemas with their transforms to domain types (what the client accepts). The sandbox
// may import these to check that what it answers is what the client can read.
export * from './common';
export * from './auth';
export * from './registry';
export * from './eligibility';
export * from './consent';
export * from './preauth';
export * from './claims';
export * from './emergency';
export * from './prescriptions';
export * from './callbacks';
export * from './lookups';
