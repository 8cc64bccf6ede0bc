import { randomBytes } from 'node:crypto';
import { link, open, readFile, readlink, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
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

/** How long a command waits for another one's edit before it gives up. */
const LOCK_WAIT_MS = 10_000;
const LOCK_RETRY_MS = 25;
/**
 * A lock this host cannot check is stale after this: one that names no process (its holder died
 * between making and writing it), or a process of another host or container, whose ids mean
 * nothing here. An edit holds the lock for milliseconds.
 */
const UNCHECKED_LOCK_STALE_MS = 60_000;
/** Who holds a lock: the process id and the host, as `1234@host`. */
const LOCK_OWNER = `${process.pid}@${hostname()}`;

/**
 * The file `path` names in the end: a symlink is followed (dangling too, for a file not made
 * yet), so the new file replaces the link's target and the link stays a link.
 */
async function targetOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    const next = await readlink(current).catch(() => undefined);
    if (next === undefined) break;
    current = resolve(dirname(current), next);
  }
  try {
    return join(await realpath(dirname(current)), basename(current));
  } catch {
    throw new CliError('refused', `APPS_FILE ${path}: its folder ${dirname(current)} does not exist`);
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Who a lock file names, and whether its holder is gone (a crashed command leaves its lock behind). */
async function lockHolder(lock: string): Promise<{ owner: string; stale: boolean; ino: number } | undefined> {
  try {
    const info = await stat(lock);
    const owner = (await readFile(lock, 'utf8')).trim();
    const [pid, host] = owner.split('@');
    if (host === hostname() && Number(pid) > 0) return { owner, stale: !isAlive(Number(pid)), ino: info.ino };
    return { owner, stale: Date.now() - info.mtimeMs > UNCHECKED_LOCK_STALE_MS, ino: info.ino };
  } catch {
    return undefined;
  }
}

/**
 * Removes a stale lock unless another command has just replaced it: the lock is renamed aside
 * first, and put back (by a link, which fails if a third one took the name) when it is not the
 * one found stale.
 */
async function breakStaleLock(lock: string, staleIno: number): Promise<void> {
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(lock, aside);
  } catch {
    return;
  }
  if ((await stat(aside)).ino !== staleIno) await link(aside, lock).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/**
 * Runs `edit` while holding `<target>.lock` (made with O_EXCL beside the file, holding this
 * process's id and host), so commands run at once edit one after the other and none loses another's
 * change. `edit` is handed the target file's path.
 */
export async function withAppsFileLock<T>(path: string, edit: (target: string) => Promise<T>): Promise<T> {
  const target = await targetOf(path);
  const lock = `${target}.lock`;
  const giveUpAt = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      try {
        await handle.writeFile(`${LOCK_OWNER}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new CliError('refused', `cannot make the lock file ${lock} beside APPS_FILE (${code ?? 'EIO'})`);
    }
    const holder = await lockHolder(lock);
    if (holder?.stale) {
      await breakStaleLock(lock, holder.ino);
      continue;
    }
    if (Date.now() > giveUpAt) {
      const who = holder?.owner ? `another command (process ${holder.owner})` : 'another command';
      throw new CliError('refused', `APPS_FILE is being edited by ${who}: try again; if no command runs, remove ${lock}. Nothing changed.`);
    }
    await new Promise((done) => setTimeout(done, LOCK_RETRY_MS));
  }
  try {
    return await edit(target);
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

/**
 * Checks `entries` as the service will, then replaces `target` (a real file, not a link: see
 * {@link withAppsFileLock}) in one rename from a temporary file in its own folder: the service
 * (which re-reads the file when it changes) and a reader at the same moment see the old file or
 * the new one, never half of it. The new file keeps the old one's mode (0600 for a new file).
 */
export async function writeEntries(target: string, entries: readonly AppEntry[]): Promise<void> {
  parseApps(entries);
  const mode = await stat(target).then(
    (info) => info.mode & 0o777,
    () => 0o600,
  );
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(entries, null, 2)}\n`, { mode, flag: 'wx' });
    await rename(temporary, target);
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
