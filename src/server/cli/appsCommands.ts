import { existsSync } from 'node:fs';
import { APP_ID_RULE, isAppId } from '../auth/apps';
import { appsFilePath, findEntry, newSecret, readEntries, withAppsFileLock, writeEntries, type AppEntry } from './appsFile';
import { CliError } from './cliError';
import type { Command } from './command';
import { parseDuration } from './duration';

/** An older secret as the file holds it. */
interface OlderSecretEntry {
  secret: string;
  until: string;
}

const olderSecretsOf = (entry: AppEntry) => (Array.isArray(entry.olderSecrets) ? (entry.olderSecrets as OlderSecretEntry[]) : []);

/**
 * Control characters (and the two Unicode line separators) written as `\u` escapes: a value from
 * the file can then never start a line of its own in what `apps list` prints.
 */
const oneLine = (text: string) =>
  text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** What `apps list` shows of an entry: everything but the secrets. */
function describe(entry: AppEntry): string {
  const parts = [entry.appId];
  if (typeof entry.callbackUrl === 'string') parts.push(`callback ${entry.callbackUrl}`);
  if (Array.isArray(entry.allowedOrigins)) parts.push(`origins ${entry.allowedOrigins.join(' ')}`);
  if (typeof entry.widgetToken === 'string') parts.push(`widgetToken ${entry.widgetToken}`);
  if (typeof entry.previousSecretUntil === 'string') parts.push(`previous secret valid until ${entry.previousSecretUntil}`);
  for (const older of olderSecretsOf(entry)) parts.push(`older secret valid until ${older.until}`);
  if (entry.quota !== undefined) parts.push(`quota ${JSON.stringify(entry.quota)}`);
  return oneLine(parts.join('  '));
}

const secretNotice = (secret: string) => `AppSecret (shown only now; keep it in the app backend's secret store): ${secret}`;

/** The appId argument, refused (exit 2) unless the service would accept it; shown escaped, so it cannot forge a line. */
function appIdArgument(appId: string | undefined): string {
  if (!isAppId(appId)) throw new CliError('usage', `appId must be ${APP_ID_RULE}, got ${JSON.stringify(appId ?? '').slice(0, 80)}`);
  return appId;
}

/**
 * The secrets an app accepts besides its current one after a rotation at `nowMs`: the current
 * one until `nowMs + overlapMs`, and every earlier one still inside its own overlap, until its
 * own time (a second rotation keeps the first one's promise). An overlap of 0 keeps none.
 */
function afterRotation(entry: AppEntry, nowMs: number, overlapMs: number): Partial<AppEntry> {
  if (overlapMs === 0) return {};
  const earlier: OlderSecretEntry[] = [
    ...(typeof entry.previousSecret === 'string' && typeof entry.previousSecretUntil === 'string'
      ? [{ secret: entry.previousSecret, until: entry.previousSecretUntil }]
      : []),
    ...olderSecretsOf(entry),
  ].filter((older) => Date.parse(older.until) > nowMs);
  return {
    previousSecret: entry.appSecret,
    previousSecretUntil: new Date(nowMs + overlapMs).toISOString(),
    ...(earlier.length > 0 && { olderSecrets: earlier }),
  };
}

/** Secrets an entry accepts besides its current one, at `nowMs`. */
function earlierAccepted(entry: AppEntry, nowMs: number): number {
  const previous = typeof entry.previousSecretUntil === 'string' && Date.parse(entry.previousSecretUntil) > nowMs ? 1 : 0;
  return previous + olderSecretsOf(entry).filter((older) => Date.parse(older.until) > nowMs).length;
}

export const appsCommands: Command[] = [
  {
    name: 'apps list',
    usage: 'apps list',
    summary: 'list the apps in APPS_FILE (never their secrets)',
    run: async ({ env, out }) => {
      const entries = await readEntries(appsFilePath(env));
      if (entries.length === 0) out('no apps');
      for (const entry of entries) out(describe(entry));
    },
  },
  {
    name: 'apps add',
    usage: 'apps add <appId> [--callback-url URL] [--allowed-origin ORIGIN]...',
    summary: 'add an app with a new strong secret, printed once',
    positionals: ['appId'],
    options: { 'callback-url': { type: 'string' }, 'allowed-origin': { type: 'string', multiple: true } },
    run: async ({ env, out, positionals, values }) => {
      const appId = appIdArgument(positionals[0]);
      const path = appsFilePath(env);
      const secret = newSecret();
      await withAppsFileLock(path, async (target) => {
        const entries = existsSync(target) ? await readEntries(target) : [];
        if (entries.some((entry) => entry.appId === appId)) {
          throw new CliError('refused', `app "${appId}" already exists; for a new secret use: apps rotate ${appId}`);
        }
        const entry: AppEntry = { appId, appSecret: secret };
        if (typeof values['callback-url'] === 'string') entry.callbackUrl = values['callback-url'];
        if (Array.isArray(values['allowed-origin'])) entry.allowedOrigins = values['allowed-origin'];
        await writeEntries(target, [...entries, entry]);
      });
      out(`added app "${appId}" to ${path}`);
      out(secretNotice(secret));
    },
  },
  {
    name: 'apps rotate',
    usage: 'apps rotate <appId> [--overlap 24h]',
    summary: 'give an app a new secret; the old ones keep working for the overlap (default 24h; 0 cuts them off)',
    positionals: ['appId'],
    options: { overlap: { type: 'string', default: '24h' } },
    run: async ({ env, out, now, positionals, values }) => {
      const appId = appIdArgument(positionals[0]);
      const overlapMs = parseDuration(String(values.overlap), '--overlap');
      const path = appsFilePath(env);
      const secret = newSecret();
      const nowMs = now();
      const rotated = await withAppsFileLock(path, async (target) => {
        const entries = await readEntries(target);
        const entry = findEntry(entries, appId);
        const { previousSecret: _old, previousSecretUntil: _until, olderSecrets: _older, ...rest } = entry;
        const next: AppEntry = { ...rest, appSecret: secret, ...afterRotation(entry, nowMs, overlapMs) };
        await writeEntries(
          target,
          entries.map((candidate) => (candidate === entry ? next : candidate)),
        );
        return { next, cut: earlierAccepted(entry, nowMs) };
      });
      if (overlapMs === 0) {
        const others = rotated.cut > 0 ? ` and the ${rotated.cut} earlier one(s) still in their overlap are` : ' is';
        out(`rotated the secret of "${appId}"; the previous one${others} refused from now on`);
      } else {
        out(`rotated the secret of "${appId}"; the previous one is accepted until ${String(rotated.next.previousSecretUntil)}`);
        for (const older of olderSecretsOf(rotated.next)) out(`an earlier secret stays accepted until ${older.until}, as promised`);
      }
      out(secretNotice(secret));
    },
  },
  {
    name: 'apps remove',
    usage: 'apps remove <appId>',
    summary: 'remove an app: its tokens, tickets and open upload pages stop working',
    positionals: ['appId'],
    run: async ({ env, out, positionals }) => {
      const appId = appIdArgument(positionals[0]);
      const path = appsFilePath(env);
      await withAppsFileLock(path, async (target) => {
        const entries = await readEntries(target);
        const entry = findEntry(entries, appId);
        await writeEntries(
          target,
          entries.filter((candidate) => candidate !== entry),
        );
      });
      out(`removed app "${appId}" from ${path}`);
    },
  },
];
