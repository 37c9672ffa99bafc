// The command table is complete and consistent: every command has both schemas, no area shadows
// another's command, every "next" action a view offers is a real command, and the README's
// catalogue names every command and event.
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { CommandName, WorkflowView } from '../../../electron/contract';
import { commandGroups, commandNames, commands, eventTypes, workflowView } from '../../../electron/contract';

describe('the command table', () => {
  it('gives every command an input and an output schema', () => {
    expect(commandNames.length).toBeGreaterThan(40);
    for (const name of commandNames) {
      expect(commands[name].input, name).toBeInstanceOf(z.ZodType);
      expect(commands[name].output, name).toBeInstanceOf(z.ZodType);
    }
  });

  it('has no command defined twice across areas', () => {
    const perArea = Object.values(commandGroups).flatMap((group) => Object.keys(group));
    expect(new Set(perArea).size).toBe(perArea.length);
    expect(perArea.length).toBe(commandNames.length);
  });

  it('offers only real commands as next actions', () => {
    expectTypeOf<WorkflowView['next'][number]>().toExtend<CommandName>();
    for (const view of workflowView.options) {
      for (const action of view.shape.next.element.options) expect(commandNames, `${view.shape.kind.value} offers ${action}`).toContain(action);
    }
  });

  it('is catalogued in the README, command by command and event by event', () => {
    const readme = readFileSync('electron/contract/README.md', 'utf8');
    for (const name of [...commandNames, ...eventTypes]) expect(readme, name).toContain(`\`${name}\``);
  });
});
