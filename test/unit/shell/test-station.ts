// A small hosted core for shell tests: answers from the contract's examples, records calls, and
// lets a test push events. Stands in for electron/station where the shell alone is under test.
import type { CommandName, HostedCore, Invocation } from '../../../electron/contract';
import { outputExamples } from '../contract/examples';

export interface TestStation extends HostedCore {
  calls: { name: string; input: unknown }[];
  emit(event: unknown): void;
  /** Replaces the answer to one command (a raw value, so a test can break the contract). */
  answer(name: CommandName, outcome: unknown): void;
  listenerCount(): number;
}

export function testStation(): TestStation {
  const calls: { name: string; input: unknown }[] = [];
  const listeners = new Set<(event: unknown) => void>();
  const overrides = new Map<string, unknown>();
  const bridge = {
    calls,
    async invoke({ name, input }: Invocation) {
      calls.push({ name, input });
      if (overrides.has(name)) return overrides.get(name);
      return { ok: true, value: outputExamples[name] };
    },
    subscribe(listener: (event: unknown) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(event: unknown) {
      for (const listener of listeners) listener(event);
    },
    answer(name: CommandName, outcome: unknown) {
      overrides.set(name, outcome);
    },
    listenerCount: () => listeners.size,
  };
  return bridge as unknown as TestStation;
}
