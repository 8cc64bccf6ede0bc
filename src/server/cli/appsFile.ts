import { randomBytes } from 'node:crypto';
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { loadAppsFile, parseApps } from '../auth/apps';
import { CliError } from './cliError';

/**
 * An app entry as the file holds it: fields this command does not edit (quota, readableApps, …)
 * are kept as written, not rebuilt from the parsed record.
 */
export type AppEntry = Record<string, unknown> & { appId: string };

/** A strong AppSecret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function appsFilePath(env: NodeJS.ProcessEnv): string {
  const path = env.APPS_FILE;
  if (!path)
    throw new CliError(
      'refused',
      'APPS_FILE is not set: set it to the apps file the service reads (without it the service serves only its demo app)',
    );
  return path;
}

/** The entries of a valid file; the service's own check refuses a bad one, naming no content of it. */
export async function readEntries(path: string): Promise<AppEntry[]> {
  loadAppsFile(path);
  return JSON.parse(await readFile(path, 'utf8')) as AppEntry[];
}

/**
 * Checks `entries` as the service will, then replaces the file in one rename: the service (which
 * re-reads the file when it changes) and a reader at the same moment see the old file or the new
 * one, never half of it. The new file keeps the old one's mode (0600 for a new file).
 */
export async function writeEntries(path: string, entries: readonly AppEntry[]): Promise<void> {
  parseApps(entries);
  const mode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => 0o600,
  );
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(entries, null, 2)}\n`, { mode, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

export function findEntry(entries: readonly AppEntry[], appId: string): AppEntry {
  const entry = entries.find((candidate) => candidate.appId === appId);
  if (!entry) throw new CliError('refused', `no app "${appId}" in APPS_FILE (see: apps list)`);
  return entry;
}
