// The bench holds each figure to its goal and fails the metric, not the suite: a goal missed, a
// part that throws or a figure never reported marks only its own metrics.
import { describe as suite, expect, it } from 'vitest';
import { describe, eachPart, goalMet, runModule, type MetricModule } from '../../../bench/metric';

suite('goals', () => {
  it('compares the figure with the goal’s limit, and leaves context goals unjudged', () => {
    expect(goalMet(1.1, '<= 1.10')).toBe(true);
    expect(goalMet(1.11, '<= 1.10')).toBe(false);
    expect(goalMet(120, '<= 120')).toBe(true);
    expect(goalMet(3, '>= 4')).toBe(false);
    expect(goalMet(5, '<= 5 (the dependency chain; 4 once the ward’s usual sub-benefit is known)')).toBe(true);
    expect(goalMet(900, 'context: T(0)')).toBeNull();
    expect(goalMet(624, 'informational (57600 baud, 3 empty polls)')).toBeNull();
  });
});

suite('runModule', () => {
  const specs = [
    { name: 'a_ratio', unit: 'ratio', goal: '<= 1.10' },
    { name: 'b_ms', unit: 'ms', goal: '<= 16' },
    { name: 'c_context', unit: 'ms', goal: 'context: the rest' },
  ];

  it('reports each figure with whether its goal was met', async () => {
    const module: MetricModule = {
      specs,
      default: async (report) => {
        report('a_ratio', 1.2);
        report('b_ms', 14.5);
        report('c_context', 900);
      },
    };
    const metrics = await runModule(module);
    expect(metrics).toEqual([
      { name: 'a_ratio', unit: 'ratio', goal: '<= 1.10', value: 1.2, met: false },
      { name: 'b_ms', unit: 'ms', goal: '<= 16', value: 14.5, met: true },
      { name: 'c_context', unit: 'ms', goal: 'context: the rest', value: 900, met: null },
    ]);
    expect(describe(metrics[0]!)).toBe('a_ratio: 1.2 ratio (goal <= 1.10) — MISSED');
    expect(describe(metrics[1]!)).toBe('b_ms: 14.5 ms (goal <= 16) — met');
  });

  it('fails only the metrics a failing part measures; the other parts still run and report', async () => {
    const module: MetricModule = {
      specs,
      default: async (report) => {
        await eachPart([
          async () => {
            throw new Error('the page never showed "Visit open"');
          },
          async () => report('b_ms', 12),
          async () => report('c_context', 7),
        ]);
      },
    };
    const [a, b, c] = await runModule(module);
    expect(a).toMatchObject({ name: 'a_ratio', value: null, met: false, error: 'the page never showed "Visit open"' });
    expect(b).toMatchObject({ name: 'b_ms', value: 12, met: true });
    expect(c).toMatchObject({ name: 'c_context', value: 7, met: null });
    expect(describe(a!)).toBe('a_ratio: not measured (the page never showed "Visit open") (goal <= 1.10) — MISSED');
  });

  it('answers every declared metric when the module throws before reporting anything', async () => {
    const metrics = await runModule({
      specs,
      default: async () => {
        throw new Error('Chromium did not start');
      },
    });
    expect(metrics.map((m) => [m.name, m.value, m.met, m.error])).toEqual([
      ['a_ratio', null, false, 'Chromium did not start'],
      ['b_ms', null, false, 'Chromium did not start'],
      ['c_context', null, null, 'Chromium did not start'],
    ]);
  });

  it('refuses a figure the module does not declare, so a renamed metric cannot slip out unpublished', async () => {
    const metrics = await runModule({ specs, default: async (report) => report('a_ratio_renamed', 1) });
    expect(metrics[0]).toMatchObject({ value: null, met: false, error: 'the module reported a_ratio_renamed, which it does not declare' });
  });
});
