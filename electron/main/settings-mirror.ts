// The two settings the shell itself acts on — the authorization-link origins (navigation and the
// Local Network grant) and the idle-lock minutes — mirrored from every settings.get and
// settings.update outcome that passes through the shell. Until the first one arrives: no origin is
// allowed and the lock uses the contract's shortest sensible default.
import type { CommandName } from '../contract';
import type { AnyOutcome } from './dispatch';
import { normaliseOrigins } from './origins';

const DEFAULT_IDLE_MINUTES = 5;

export class SettingsMirror {
  #origins: ReadonlySet<string> = new Set();
  #idleMinutes = DEFAULT_IDLE_MINUTES;

  get allowedLinkOrigins(): ReadonlySet<string> {
    return this.#origins;
  }

  get idleLockMinutes(): number {
    return this.#idleMinutes;
  }

  observe(name: CommandName, outcome: AnyOutcome): void {
    if (!outcome.ok || (name !== 'settings.get' && name !== 'settings.update')) return;
    const settings = outcome.value as { allowedLinkOrigins: string[]; idleLockMinutes: number };
    this.#origins = normaliseOrigins(settings.allowedLinkOrigins);
    this.#idleMinutes = settings.idleLockMinutes;
  }
}
