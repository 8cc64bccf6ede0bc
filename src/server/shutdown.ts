import type { Logger } from './log';

/** How long a stop may take before the process ends anyway; below the usual 10 s before a process manager's SIGKILL. */
const SHUTDOWN_GRACE_MS = 8_000;

/**
 * SIGTERM (process managers, `docker stop`) and SIGINT (Ctrl-C) run `stop` once, then end the
 * process. `npm start` execs node, so npm passes these signals straight to this process.
 */
export function stopOnSignals(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    setTimeout(() => {
      log.error(`stop took longer than ${SHUTDOWN_GRACE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error('stop failed', { error: String((error as Error)?.stack ?? error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
