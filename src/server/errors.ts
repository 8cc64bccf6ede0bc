import { RESULT_CODES, type FailureCode, type ResultName } from '../shared/resultCodes';

/** The HTTP status each result is sent with: only the service's concern, so kept apart from the shared table. */
const HTTP_STATUS = {
  OK: 200,
  MISSING_PARAMETER: 400,
  UNKNOWN_APP: 401,
  TIMESTAMP_OUT_OF_RANGE: 401,
  BAD_TOKEN: 401,
  UNKNOWN_VIDEO: 404,
  INVALID_PARAMETER: 400,
  WRONG_STATE: 409,
  NO_PERMISSION: 403,
  PAYLOAD_TOO_LARGE: 413,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  FILE_TOO_LARGE: 413,
  NO_SPACE: 507,
  DATABASE_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
} as const satisfies Record<ResultName, number>;

type ErrorRow<Name extends ResultName> = (typeof RESULT_CODES)[Name] & { readonly http: (typeof HTTP_STATUS)[Name] };

/**
 * Every outcome the service can report, as data: the shared table's code and message
 * (src/shared/resultCodes.ts) with the HTTP status. Replies are built from it in one place
 * (`http/reply.ts`), and the upload page renders the same codes as
 * `ErrorCode : <code>, ErrorMessage : <message>`.
 */
export const ERRORS = Object.fromEntries(
  Object.entries(RESULT_CODES).map(([name, row]) => [name, { ...row, http: HTTP_STATUS[name as ResultName] }]),
) as { readonly [Name in ResultName]: ErrorRow<Name> };

export type ErrorName = Exclude<ResultName, 'OK'>;

/** Details often echo what the client sent (an Id, a value); a reply need not carry kilobytes of it back. */
export const MAX_DETAIL_CHARS = 200;

function bounded(detail: string | undefined): string | undefined {
  return detail !== undefined && detail.length > MAX_DETAIL_CHARS ? `${detail.slice(0, MAX_DETAIL_CHARS)}…` : detail;
}

/** What a refusal may tell the client beyond its code and detail. */
export interface ServiceErrorOptions {
  /** Whole seconds after which the same request may succeed; sent as `Retry-After` (a quota refusal). */
  retryAfterSeconds?: number;
}

/** A failure with a code from {@link ERRORS}; `detail` names what was wrong (never a secret), cut to {@link MAX_DETAIL_CHARS}. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly kind: ErrorName;
  readonly detail: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ErrorName, fullDetail?: string, options: ServiceErrorOptions = {}) {
    const detail = bounded(fullDetail);
    super(detail ? `${ERRORS[kind].message}: ${detail}` : ERRORS[kind].message);
    this.kind = kind;
    this.detail = detail;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get code(): FailureCode {
    return ERRORS[this.kind].code;
  }

  get httpStatus(): number {
    return ERRORS[this.kind].http;
  }

  /** The ResultMessage: the table's text, followed by the detail when there is one. */
  get resultMessage(): string {
    return this.message;
  }
}

/** `instanceof` alone fails across module copies; the constant name is checked too. */
export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError || (value instanceof Error && value.name === 'ServiceError' && 'kind' in value);
}
