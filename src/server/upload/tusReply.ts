import type { ServerResponse } from 'node:http';
import { sendNodeResponse } from 'srvx/node';
import { BASE_HEADERS, JSON_CONTENT_TYPE } from '../http/reply';
import type { Logger } from '../log';
import { tusErrorReply } from './tusErrors';

/** How every body {@link tusErrorReply} makes begins (`JSON.stringify(errorBody(…))`). */
const AUTH_MSG_START = '{"AuthMsg":';

/**
 * Sends what @tus/server answered. A refusal with a body (any method but HEAD) leaves as the
 * API's JSON AuthMsg typed `application/json`, however tus made it: its errors pass through
 * `onResponseError` (tusErrorReply) but tus types them `text/plain`, and a few refusals it writes
 * itself before any handler or hook (412 without Tus-Resumable, 400 for a malformed tus header)
 * are plain text. The status tus chose stays, as clients act on it (409 to re-read the offset, 412,
 * 413); so do its other headers (Tus-Resumable, CORS).
 */
export async function sendTusReply(res: ServerResponse, method: string, response: Response, log: Logger): Promise<void> {
  if (response.status < 400 || method === 'HEAD') return sendNodeResponse(res, response);
  const text = await response.text();
  const body = text.startsWith(AUTH_MSG_START) ? text : tusErrorReply({ status_code: response.status, body: text }, log).body;
  response.headers.forEach((value, name) => {
    if (name !== 'content-type' && name !== 'content-length') res.setHeader(name, value);
  });
  res.writeHead(response.status, { ...BASE_HEADERS, 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
