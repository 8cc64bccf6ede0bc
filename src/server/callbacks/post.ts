import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export type PostOutcome = { ok: true; status: number } | { ok: false; error: string };

/**
 * One POST, no redirects followed (a 3xx is an answer like any other non-2xx), settled when the
 * reply headers arrive or `timeoutMs` passes. `stop` aborts it with the error `stopped`.
 * `lookup` answers with the addresses already vetted for the URL's host, so the socket connects
 * to what was checked.
 */
export function postForm(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  stop: AbortSignal,
  lookup: LookupFunction,
): Promise<PostOutcome> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const timeout = AbortSignal.timeout(timeoutMs);
  return new Promise((resolve) => {
    const req = send(target, {
      method: 'POST',
      agent: false,
      lookup,
      signal: AbortSignal.any([stop, timeout]),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'open-video-upload-callback',
        ...headers,
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ ok: true, status: res.statusCode ?? 0 });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const reason = stop.aborted ? 'stopped' : timeout.aborted ? `no reply within ${timeoutMs} ms` : (error.code ?? error.message);
      resolve({ ok: false, error: reason });
    });
    req.end(body);
  });
}
