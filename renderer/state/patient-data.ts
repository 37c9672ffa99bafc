// When the station locks, the renderer drops every patient detail it holds (contract: station.locked).
// Each store that holds patient data registers how to forget it.
const forgetters = new Set<() => void>();

export function holdsPatientData(forget: () => void): void {
  forgetters.add(forget);
}

export function dropPatientData(): void {
  for (const forget of forgetters) forget();
}
