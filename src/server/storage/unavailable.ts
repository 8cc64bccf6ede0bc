/**
 * Errors that mean "the database cannot be reached now", not "this request is wrong" nor "the
 * service is broken": the caller may try again, and the service recovers by itself once the
 * database is back (the pool reconnects on the next query). PostgreSQL reports them as socket
 * connect errors, the connection-exception class 08 and the operator-intervention class 57P (shutdown,
 * crash, cannot connect now); pg adds its own message when a connection ends mid-query.
 */
// Connect-time failures only: on a request's path nothing else opens a connection, while a reset
// or a broken pipe there is more often the client's own socket than the database's.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * The pool could not open a connection to the database. A reset there comes from the database's
 * side (a server shutting down closes new sessions), unlike one on a request's own socket.
 */
export class DatabaseConnectError extends Error {
  override readonly name = 'DatabaseConnectError';

  // No `code` of its own: a bare ECONNREFUSED is also what a lost S3 bucket says (isBucketUnavailable).
  constructor(cause: unknown) {
    super(`cannot connect to the database: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof Error && error.name === 'DatabaseConnectError') return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || code.startsWith('08') || code.startsWith('57P'))) return true;
  return typeof message === 'string' && /^Connection terminated|connection error|Connection terminated unexpectedly/.test(message);
}
