import { ERRORS as TUS_ERRORS } from '@tus/server';
import type { Logger } from '../log';
import { ServiceError, ERRORS, isServiceError, type ErrorName } from '../errors';
import { errorBody } from '../http/reply';

/** A reply as @tus/server's `onResponseError` takes it. */
export interface TusErrorReply {
  status_code: number;
  body: string;
}

function isTusError(value: unknown): value is TusErrorReply {
  return typeof value === 'object' && value !== null && typeof (value as TusErrorReply).status_code === 'number';
}

/**
 * tus's own refusals keep their HTTP status (tus clients act on 409, 412 and 423), with the code
 * of our table that says the same thing: a header tus requires and did not get is 101, like a
 * missing API parameter; a finished upload that cannot be removed is 107.
 */
function kindOfTusRefusal(status: number, body: string): ErrorName {
  if (status === 412 || body === TUS_ERRORS.MISSING_OFFSET.body || body === TUS_ERRORS.INVALID_CONTENT_TYPE.body)
    return 'MISSING_PARAMETER';
  if (body === TUS_ERRORS.INVALID_TERMINATION.body) return 'WRONG_STATE';
  if (status === 413) return 'FILE_TOO_LARGE';
  if (status === 404 || status === 410) return 'NOT_FOUND';
  if (status >= 500) return 'INTERNAL';
  return 'INVALID_PARAMETER';
}

/**
 * Every error leaving the tus endpoint as `{AuthMsg:{ResultCode, ResultMessage}}`, like the API's.
 * Our own ApiErrors (thrown by the hooks) carry their table status; tus's keep theirs. A part's
 * failure comes here as its ServiceError already (Outages, in the endpoint's onResponseError), logged
 * once per outage: a full disk (the file's own error, which tus passes on unchanged, or SQLite's)
 * is 507 / 113, a refusal the client may retry once there is room (the bytes written before it
 * stay, so the upload resumes from there); a lost database 503 / 114; a lost bucket 503 / 115.
 */
export function tusErrorReply(error: unknown, log: Logger): TusErrorReply {
  let status: number;
  let serviceError: ServiceError;
  if (isServiceError(error)) {
    status = error.httpStatus;
    serviceError = error;
  } else if (isTusError(error)) {
    status = error.status_code;
    const kind = kindOfTusRefusal(status, String(error.body ?? ''));
    serviceError = new ServiceError(kind, kind === 'INTERNAL' ? undefined : String(error.body ?? '').trim() || undefined);
  } else {
    status = ERRORS.INTERNAL.http;
    serviceError = new ServiceError('INTERNAL');
  }
  if (serviceError.kind === 'INTERNAL') log.error('upload request failed', { error: String((error as Error)?.stack ?? error) });
  return { status_code: status, body: JSON.stringify(errorBody(serviceError)) };
}
