/** Levels from most to least detailed; `LOG_LEVEL` keeps its own and the ones after it. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}

/** One JSON line per event on stderr. Callers pass ids and codes, never secrets, tokens or query strings. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(write: (line: string) => void = (line) => process.stderr.write(line + '\n'), level: LogLevel = 'info'): Logger {
  const lowest = LOG_LEVELS.indexOf(level);
  const emit = (at: LogLevel) =>
    LOG_LEVELS.indexOf(at) < lowest
      ? () => {}
      : (message: string, fields: Record<string, unknown> = {}) => write(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields }));
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/**
 * The logger `npm start` uses: stderr, at `LOG_LEVEL`. It exists before the configuration is read,
 * so that a wrong setting can be reported; readConfig then refuses a wrong `LOG_LEVEL` too.
 */
export function processLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  return createLogger(undefined, isLogLevel(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info');
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
