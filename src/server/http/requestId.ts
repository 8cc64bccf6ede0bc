import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { REQUEST_ID_HEADER } from '../../shared/requestId';

// Defined beside the replies it names, for the uploader to read it too.
export { REQUEST_ID_HEADER };

/** Printable ASCII, at most 128 characters: what a log line and an error page can carry as it is. */
const SANE_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

/**
 * The request's id: the incoming `X-Request-Id` when it is sane (a proxy's or load balancer's id
 * then names the request in both logs), otherwise a new random one. An insane one is replaced,
 * never echoed: it could split the log's lines or the reply's headers, or fill them.
 */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const incoming = headers[REQUEST_ID_HEADER.toLowerCase()];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) && incoming.trim() !== '' ? incoming : randomUUID();
}
