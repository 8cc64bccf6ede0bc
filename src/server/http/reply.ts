import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AuthMsg } from '../../shared/apiReplies';
import { ERRORS, type ServiceError } from '../errors';

export const OK_AUTH_MSG: AuthMsg = { ResultCode: ERRORS.OK.code, ResultMessage: ERRORS.OK.message };

/** Headers every reply carries: no sniffing, no caching of signed answers. */
export const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
} as const;

/** The Content-Type of every JSON reply. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendJson(res: ServerResponse, status: number, body: object, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...BASE_HEADERS,
    ...headers,
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendOk(res: ServerResponse, body: object): void {
  sendJson(res, 200, { AuthMsg: OK_AUTH_MSG, ...body });
}

/** The one place a ServiceError becomes a body; the tus endpoint hands it to @tus/server. */
export function errorBody(error: ServiceError): { AuthMsg: AuthMsg } {
  return { AuthMsg: { ResultCode: error.code, ResultMessage: error.resultMessage } };
}

/** `Retry-After` when the error says when to come back (a quota refusal), else nothing. */
export function errorHeaders(error: ServiceError): OutgoingHttpHeaders {
  return error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
}

export function sendServiceError(res: ServerResponse, error: ServiceError): void {
  sendJson(res, error.httpStatus, errorBody(error), errorHeaders(error));
}
