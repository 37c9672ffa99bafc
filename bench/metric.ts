// What a bench metric is, and how a figure is held to its goal (kept out of bench/metrics, whose
// every file run.ts runs).

/** What a metric module measures: its name (kept once published), unit and goal. */
export interface MetricSpec {
  readonly name: string;
  readonly unit: string;
  /** Human-readable goal, e.g. "<= 1.15"; a goal that is not a comparison ("context: …") is never missed. */
  readonly goal: string;
}

/** A figure as `npm run bench -- --json` reports it. */
export interface Metric extends MetricSpec {
  /** null when it could not be measured (`error` says why). */
  readonly value: number | null;
  /** true when the goal is met, false when missed or not measured, null for a figure given as context. */
  readonly met: boolean | null;
  readonly error?: string;
}

/** A metric module: the metrics it measures, and the run that reports each one's value as it has it. */
export interface MetricModule {
  readonly specs: readonly MetricSpec[];
  default(report: (name: string, value: number) => void): Promise<void>;
}

const comparison = /^\s*(<=|>=|<|>|≤|≥)\s*(-?\d+(?:\.\d+)?)/;

/** Whether a goal compares the figure with a limit (else the figure is context). */
const comparesSomething = (goal: string): boolean => comparison.test(goal);

/** Whether `value` meets `goal`; null when the goal compares nothing (context, informational). */
export function goalMet(value: number, goal: string): boolean | null {
  const match = comparison.exec(goal);
  if (match === null) return null;
  const limit = Number(match[2]);
  switch (match[1]) {
    case '<=':
    case '≤':
      return value <= limit;
    case '>=':
    case '≥':
      return value >= limit;
    case '<':
      return value < limit;
    default:
      return value > limit;
  }
}

/**
 * Runs one module and answers every metric it declares: each value it reported, held to its goal;
 * each it did not report before it failed (or finished without it), missed with the reason. One
 * metric failing never stops the others, in this module or the next.
 */
export async function runModule(module: MetricModule): Promise<Metric[]> {
  const values = new Map<string, number>();
  let error: string | undefined;
  try {
    await module.default((name, value) => {
      if (!module.specs.some((s) => s.name === name)) throw new Error(`the module reported ${name}, which it does not declare`);
      values.set(name, value);
    });
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause);
  }
  return module.specs.map((spec): Metric => {
    const value = values.get(spec.name);
    if (value === undefined || !Number.isFinite(value)) {
      return { ...spec, value: null, met: comparesSomething(spec.goal) ? false : null, error: error ?? (value === undefined ? 'not measured' : `not a number: ${value}`) };
    }
    return { ...spec, value, met: goalMet(value, spec.goal) };
  });
}

/** One line per metric for a person: the figure, its goal, and whether it was met. */
export function describe(m: Metric): string {
  const verdict = m.met === null ? '' : m.met ? ' — met' : ' — MISSED';
  const figure = m.value === null ? `not measured (${m.error ?? 'no value'})` : `${m.value} ${m.unit}`;
  return `${m.name}: ${figure} (goal ${m.goal})${verdict}`;
}

/**
 * Runs every part of a module even when one fails, so that one part's failure fails only the
 * metrics it measures; then fails with what went wrong, if anything did.
 */
export async function eachPart(parts: readonly (() => Promise<void>)[]): Promise<void> {
  const errors: string[] = [];
  for (const part of parts) {
    try {
      await part();
    } catch (cause) {
      errors.push(cause instanceof Error ? cause.message : String(cause));
    }
  }
  if (errors.length > 0) throw new Error(errors.join('; '));
}
