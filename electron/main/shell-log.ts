// Where the shell's log lines go. Once the station core exists, every line goes through the core's
// logger (`station.log.child({component: 'shell'})`): its redaction, and its scrubber, which knows
// every secret value and patient name the core has seen — a consent token in a refused URL or an
// error is blanked there, where a logger of the shell's own could not know it.
//
// The shell's services (the navigation guard, the permission policy) are made before 'ready', when
// the core does not exist yet, so they are handed this relay and it switches them over. What is
// logged before the switch goes to a boot log: the single-instance hand-over and start-up failures,
// which carry fixed messages and error class names only (no URL, no error message, no patient or
// facility data), and the core has seen no secret by then anyway.
import type { ShellLog } from './electron-api';

export class ShellLogRelay implements ShellLog {
  private target: ShellLog;
  private switched = false;

  constructor(boot: ShellLog) {
    this.target = boot;
  }

  /** From now on every line goes through the station core's logger. */
  attach(stationLog: ShellLog): void {
    this.target = stationLog;
    this.switched = true;
  }

  /** Whether lines go through the core's logger yet. */
  get attached(): boolean {
    return this.switched;
  }

  info(fields: Record<string, unknown>, message: string): void {
    this.target.info(fields, message);
  }

  warn(fields: Record<string, unknown>, message: string): void {
    this.target.warn(fields, message);
  }

  error(fields: Record<string, unknown>, message: string): void {
    this.target.error(fields, message);
  }
}
