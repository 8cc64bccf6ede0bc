/**
 * Every failure the service can report, as data: one code per distinct failure.
 * Replies are built from this table in one place (`http/reply.ts`), and the upload
 * page renders the same codes as `ErrorCode : <code>, ErrorMessage : <message>`.
 */
export const ERRORS = {
  OK: { code: '1', message: 'OK', http: 200 },
  MISSING_PARAMETER: { code: '101', message: 'Missing Parameter', http: 400 },
  UNKNOWN_APP: { code: '102', message: 'AppId Not Exist', http: 401 },
  TIMESTAMP_OUT_OF_RANGE: { code: '103', message: 'Timestamp Expired', http: 401 },
  BAD_TOKEN: { code: '104', message: 'App SecretKey Error', http: 401 },
  UNKNOWN_VIDEO: { code: '105', message: 'Video Not Exist', http: 404 },
  INVALID_PARAMETER: { code: '106', message: 'Invalid Parameter', http: 400 },
  WRONG_STATE: { code: '107', message: 'Video Status Error', http: 409 },
  NO_PERMISSION: { code: '108', message: 'No Permission', http: 403 },
  PAYLOAD_TOO_LARGE: { code: '109', message: 'Payload Too Large', http: 413 },
  NOT_FOUND: { code: '110', message: 'Not Found', http: 404 },
  METHOD_NOT_ALLOWED: { code: '111', message: 'Method Not Allowed', http: 405 },
  FILE_TOO_LARGE: { code: '112', message: 'File Too Large', http: 413 },
  NO_SPACE: { code: '113', message: 'Insufficient Storage', http: 507 },
  DATABASE_UNAVAILABLE: { code: '114', message: 'Database Unavailable', http: 503 },
  STORAGE_UNAVAILABLE: { code: '115', message: 'Storage Unavailable', http: 503 },
  TOO_MANY_REQUESTS: { code: '116', message: 'Too Many Requests', http: 429 },
  INTERNAL: { code: '500', message: 'Internal Error', http: 500 },
} as const satisfies Record<string, { code: string; message: string; http: number }>;

export type ErrorName = Exclude<keyof typeof ERRORS, 'OK'>;

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

  get code(): string {
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
