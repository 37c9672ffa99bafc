// The part of Electronegativity's programmatic API the shell test uses (its README, "Programmatically").
declare module '@doyensec/electronegativity' {
  interface RunOptions {
    input: string;
    isRelative?: boolean;
    electronVersionOverride?: string;
    customScan?: string[];
    excludeFromScan?: string[];
    severitySet?: string;
    confidenceSet?: string;
  }
  export default function run(options: RunOptions): Promise<unknown>;
}
