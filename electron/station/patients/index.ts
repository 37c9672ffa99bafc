export { PatientDirectory } from './directory';
export { briefOf, suggestIntervention, toContractIntervention, type ContractIntervention } from './interventions';
export { summariseUtilization } from './utilization';
