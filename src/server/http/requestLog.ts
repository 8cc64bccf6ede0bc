import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log';

/** What the request handler fills in once it knows which route answers. */
export interface RequestLogEntry {
  /** The matched route's template (`/Media/*`), never the request target. */
  route: string;
}

/**
 * One `info` line per request when its reply ends: method, route template, status, duration and
 * bytes. The request target is never logged: its query holds Tokens, and tus URLs name uploads.
 * `bytes` is the reply as sent, headers included, counted on its socket (a keep-alive socket
 * serves one request at a time). The id is passed, not taken from the log's scope: 'close' fires
 * outside the request's asynchronous context.
 */
export function logRequest(log: Logger, req: IncomingMessage, res: ServerResponse, requestId: string): RequestLogEntry {
  const started = performance.now();
  const socket = req.socket;
  const writtenBefore = socket.bytesWritten;
  const entry: RequestLogEntry = { route: '(none)' };
  res.once('close', () => {
    log.info('request', {
      requestId,
      method: req.method,
      route: entry.route,
      status: res.statusCode,
      durationMs: Math.round(performance.now() - started),
      bytes: socket.bytesWritten - writtenBefore,
      // The client went away or the service stopped before the reply was complete.
      ...(res.writableFinished ? {} : { incomplete: true }),
    });
  });
  return entry;
}
