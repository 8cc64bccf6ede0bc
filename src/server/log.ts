import { AsyncLocalStorage } from 'node:async_hooks';

/** Levels from most to least detailed; `LOG_LEVEL` keeps its own and the ones after it. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function isLogLevel(value: unknown): value is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}

/** One line per event on stderr (JSON, or text at a terminal). Callers pass ids and codes, never secrets, tokens or query strings. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Fields added to every line written within one piece of work (a request's id), also from the
 * promises and callbacks it starts. The storage itself holds nothing: each piece of work carries
 * its own fields, so several services in one process do not mix them.
 */
const scope = new AsyncLocalStorage<Readonly<Record<string, unknown>>>();

/** Runs `work` with `fields` on every log line it writes, beside the fields it already has. */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return scope.run({ ...scope.getStore(), ...fields }, work);
}

/** Runs `work` without the fields of the work that started it: a job a request queued is not that request's. */
export function withoutLogFields<T>(work: () => T): T {
  return scope.exit(work);
}

/** `json`: one JSON object per line, for collectors; `text`: `12:00:00.000 INFO  message key=value`, for a person at a terminal. */
export type LogFormat = 'json' | 'text';

/** A field's value in a text line: bare when it reads unambiguously, else as JSON. */
function textValue(value: unknown): string {
  return typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : (JSON.stringify(value) ?? String(value));
}

function formatLine(format: LogFormat, entry: { time: string; level: LogLevel; message: string } & Record<string, unknown>): string {
  if (format === 'json') return JSON.stringify(entry);
  const { time, level, message, ...fields } = entry;
  const rest = Object.entries(fields).map(([key, value]) => ` ${key}=${textValue(value)}`);
  return `${time.slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${message}${rest.join('')}`;
}

export function createLogger(
  write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
  level: LogLevel = 'info',
  format: LogFormat = 'json',
): Logger {
  const lowest = LOG_LEVELS.indexOf(level);
  const emit = (at: LogLevel) =>
    LOG_LEVELS.indexOf(at) < lowest
      ? () => {}
      : (message: string, fields: Record<string, unknown> = {}) =>
          write(formatLine(format, { time: new Date().toISOString(), level: at, message, ...scope.getStore(), ...fields }));
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/**
 * The logger `npm start` uses: stderr, at `LOG_LEVEL`; JSON lines, or text lines when stderr is a
 * terminal (a person reading, not a collector). It exists before the configuration is read, so
 * that a wrong setting can be reported; readConfig then refuses a wrong `LOG_LEVEL` too.
 */
export function processLogger(env: NodeJS.ProcessEnv = process.env, terminal = process.stderr.isTTY): Logger {
  return createLogger(undefined, isLogLevel(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info', terminal ? 'text' : 'json');
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
