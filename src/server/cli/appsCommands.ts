import { existsSync } from 'node:fs';
import { appsFilePath, findEntry, newSecret, readEntries, writeEntries, type AppEntry } from './appsFile';
import { CliError } from './cliError';
import type { Command } from './command';
import { parseDuration } from './duration';

/** What `apps list` shows of an entry: everything but the secrets. */
function describe(entry: AppEntry): string {
  const parts = [entry.appId];
  if (typeof entry.callbackUrl === 'string') parts.push(`callback ${entry.callbackUrl}`);
  if (Array.isArray(entry.allowedOrigins)) parts.push(`origins ${entry.allowedOrigins.join(' ')}`);
  if (typeof entry.widgetToken === 'string') parts.push(`widgetToken ${entry.widgetToken}`);
  if (typeof entry.previousSecretUntil === 'string') parts.push(`previous secret valid until ${entry.previousSecretUntil}`);
  if (entry.quota !== undefined) parts.push(`quota ${JSON.stringify(entry.quota)}`);
  return parts.join('  ');
}

const secretNotice = (secret: string) => `AppSecret (shown only now; keep it in the app backend's secret store): ${secret}`;

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
    run: async ({ env, out, positionals: [appId], values }) => {
      const path = appsFilePath(env);
      const entries = existsSync(path) ? await readEntries(path) : [];
      if (entries.some((entry) => entry.appId === appId)) {
        throw new CliError('refused', `app "${appId}" already exists; for a new secret use: apps rotate ${appId}`);
      }
      const secret = newSecret();
      const entry: AppEntry = { appId: appId!, appSecret: secret };
      if (typeof values['callback-url'] === 'string') entry.callbackUrl = values['callback-url'];
      if (Array.isArray(values['allowed-origin'])) entry.allowedOrigins = values['allowed-origin'];
      await writeEntries(path, [...entries, entry]);
      out(`added app "${appId}" to ${path}`);
      out(secretNotice(secret));
    },
  },
  {
    name: 'apps rotate',
    usage: 'apps rotate <appId> [--overlap 24h]',
    summary: 'give an app a new secret; the old one keeps working for the overlap (default 24h)',
    positionals: ['appId'],
    options: { overlap: { type: 'string', default: '24h' } },
    run: async ({ env, out, now, positionals: [appId], values }) => {
      const overlapMs = parseDuration(String(values.overlap), '--overlap');
      const path = appsFilePath(env);
      const entries = await readEntries(path);
      const entry = findEntry(entries, appId!);
      const secret = newSecret();
      const { previousSecret: _old, previousSecretUntil: _until, ...rest } = entry;
      const rotated: AppEntry =
        overlapMs > 0
          ? { ...rest, appSecret: secret, previousSecret: entry.appSecret, previousSecretUntil: new Date(now() + overlapMs).toISOString() }
          : { ...rest, appSecret: secret };
      await writeEntries(
        path,
        entries.map((candidate) => (candidate === entry ? rotated : candidate)),
      );
      out(
        overlapMs > 0
          ? `rotated the secret of "${appId}"; the previous one is accepted until ${String(rotated.previousSecretUntil)}`
          : `rotated the secret of "${appId}"; the previous one is refused from now on`,
      );
      out(secretNotice(secret));
    },
  },
  {
    name: 'apps remove',
    usage: 'apps remove <appId>',
    summary: 'remove an app: its tokens, tickets and open upload pages stop working',
    positionals: ['appId'],
    run: async ({ env, out, positionals: [appId] }) => {
      const path = appsFilePath(env);
      const entries = await readEntries(path);
      const entry = findEntry(entries, appId!);
      await writeEntries(
        path,
        entries.filter((candidate) => candidate !== entry),
      );
      out(`removed app "${appId}" from ${path}`);
    },
  },
];
