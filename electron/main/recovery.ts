// Recovery when the station window's renderer process dies (crash, out of memory, killed): the
// authorization view is closed and the renderer is loaded again from app://; the station core
// kept running, so the renderer finds its unfinished workflows with workflow.list. A renderer that
// dies again and again (three times in a minute) is not restarted in a loop: the shell gives up
// and says so.
import type { Event, RenderProcessGoneDetails } from 'electron';
import type { ShellLog, StationContentsApi } from './electron-api';

export interface RecoveryDeps {
  contents: StationContentsApi;
  /** Wipes and reloads the renderer (resetRenderer). */
  restart(): Promise<void>;
  /** Called instead of a restart when the renderer keeps dying. */
  giveUp(details: RenderProcessGoneDetails): void;
  log: ShellLog;
  now?: () => number;
  maxRestarts?: number;
  windowMs?: number;
}

export function watchRendererProcess(deps: RecoveryDeps): void {
  const now = deps.now ?? Date.now;
  const maxRestarts = deps.maxRestarts ?? 3;
  const windowMs = deps.windowMs ?? 60_000;
  let restarts: number[] = [];

  deps.contents.on('render-process-gone', (_event: Event, details: RenderProcessGoneDetails) => {
    deps.log.error({ reason: details.reason, exitCode: details.exitCode }, 'station renderer gone');
    // clean-exit is the window closing normally: nothing to recover.
    if (details.reason === 'clean-exit' || deps.contents.isDestroyed()) return;
    const at = now();
    restarts = restarts.filter((t) => at - t < windowMs);
    if (restarts.length >= maxRestarts) {
      deps.log.error({ restarts: restarts.length }, 'station renderer keeps failing: not restarting');
      deps.giveUp(details);
      return;
    }
    restarts.push(at);
    deps.restart().catch((error: unknown) => {
      deps.log.error({ error: error instanceof Error ? error.name : typeof error }, 'station renderer restart failed');
    });
  });
}
