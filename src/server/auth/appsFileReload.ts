import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../log';
import { AppsFileError, loadAppsFile, SHORT_SECRET_LENGTH, type AppRecord } from './apps';

/** Editors write a file in steps (truncate, write, rename); one read after the burst of events. */
const SETTLE_MS = 200;

export function warnShortSecrets(apps: readonly AppRecord[], log: Logger): void {
  for (const app of apps) {
    if (app.appSecret.length < SHORT_SECRET_LENGTH) {
      log.warn(`appSecret shorter than ${SHORT_SECRET_LENGTH} characters: tokens of this app are easier to forge`, { appId: app.appId });
    }
  }
}

export interface AppsFileReloadOptions {
  file: string;
  /** The apps served now, as read at start-up. */
  served: readonly AppRecord[];
  /** Serves a new set from the next request on. */
  replace(apps: readonly AppRecord[]): void;
  log: Logger;
}

export interface AppsFileReload {
  /** Re-reads the file now, as SIGHUP does. */
  reload(): void;
  close(): void;
}

/**
 * Re-reads `APPS_FILE` on SIGHUP and when it changes, so removing an app or changing its secret
 * takes effect without a restart (tickets are bound to the secret, so they go with it). The
 * directory is watched, not the file: an editor's write-then-rename replaces the file's inode,
 * and a watch on the old one would go quiet. A bad file is refused with its one-line message
 * (file:line:column, nothing of its content) and the last good set stays in service.
 */
export function reloadAppsFile(options: AppsFileReloadOptions): AppsFileReload {
  const { file, replace, log } = options;
  let served = JSON.stringify(options.served);
  // A change event for a file already refused is not logged again; SIGHUP always answers.
  let refused: string | undefined;
  let timer: NodeJS.Timeout | undefined;

  const load = (asked: boolean) => {
    let apps: AppRecord[];
    try {
      apps = loadAppsFile(file);
    } catch (error) {
      // Runs from a timer or a signal: nothing may escape, and nothing of the file may be logged
      // (an unexpected error's message could quote it), so such an error is named by its type.
      const message =
        error instanceof AppsFileError ? error.message : `APPS_FILE ${file} could not be re-read (${(error as Error)?.name ?? 'error'})`;
      if (asked || refused !== message) log.error(`${message}; still serving the last good set`);
      refused = message;
      return;
    }
    refused = undefined;
    const next = JSON.stringify(apps);
    if (next === served) {
      if (asked) log.info('APPS_FILE re-read: no change', { appsFile: file, apps: apps.length });
      return;
    }
    served = next;
    replace(apps);
    warnShortSecrets(apps, log);
    log.info('APPS_FILE re-read: new set of apps served', { appsFile: file, apps: apps.length });
  };

  const onSignal = () => load(true);
  process.on('SIGHUP', onSignal);
  // A symlinked file is replaced in its target's folder (the CLI writes through links): both are watched.
  const folders = new Set([dirname(file)]);
  try {
    folders.add(dirname(realpathSync(file)));
  } catch {
    // Not readable now: the load that follows a change says why.
  }
  const watchers: FSWatcher[] = [];
  for (const folder of folders) {
    try {
      const watcher = watch(folder, { persistent: false }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => load(false), SETTLE_MS);
      });
      watchers.push(watcher);
      watcher.on('error', (error) => {
        log.warn('APPS_FILE is no longer watched for changes; send SIGHUP after editing it', {
          appsFile: file,
          error: (error as NodeJS.ErrnoException).code,
        });
        watcher.close();
      });
    } catch (error) {
      log.warn('APPS_FILE cannot be watched for changes; send SIGHUP after editing it', {
        appsFile: file,
        error: (error as NodeJS.ErrnoException).code,
      });
    }
  }

  return {
    reload: () => load(true),
    close() {
      process.off('SIGHUP', onSignal);
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
