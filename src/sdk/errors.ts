/**
 * The SDK's failures as typed values. Both classes carry a constant `name`, and the guards check
 * it too, because `instanceof` fails when an app ends up with two copies of the package.
 */

/**
 * A call the service refused or could not answer:
 * - `code` is the reply's ResultCode (`'101'` … `'500'`, a `FailureCode` of the service's table in
 *   src/shared/resultCodes.ts, listed in docs/api.md); kept a `string`, so a code a newer service adds
 *   still reaches the caller;
 * - `'network'` when no reply came (`status` 0, the fetch error in `cause`);
 * - `'invalid-reply'` when the reply was not the API's JSON (a proxy's error page, say).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  /** The HTTP status of the reply; 0 when there was none. */
  readonly status: number;

  constructor(code: string, message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = status;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError || (value instanceof Error && value.name === 'ApiError' && typeof (value as ApiError).code === 'string');
}

/**
 * Why `verifyCallback` refused a request; each is a reason to answer it with 401, except
 * `invalid-input`, which is the caller's own mistake (a `null` for `headers`, no `appSecret`).
 */
export type CallbackRefusal =
  | 'missing-field'
  | 'duplicate-field'
  | 'invalid-field'
  | 'wrong-app'
  | 'wrong-token'
  | 'stale-timestamp'
  | 'bad-signature'
  /** No `headers` were passed and `allowUnsigned` was not set: the callback cannot be checked. */
  | 'signature-required'
  /** An argument of the wrong shape; `field` names it (`body`, `options`, `appId`, `appSecret`, `headers`, `allowUnsigned`). */
  | 'invalid-input';

/** A status callback that did not prove it came from the service. Its message never holds the secret. */
export class CallbackError extends Error {
  override readonly name = 'CallbackError';
  readonly code: CallbackRefusal;
  /** The form field or header at fault, e.g. `'Timestamp'` or `'X-Signature'`; for `invalid-input` the argument. */
  readonly field: string;

  constructor(code: CallbackRefusal, field: string, message: string) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

export function isCallbackError(value: unknown): value is CallbackError {
  return (
    value instanceof CallbackError ||
    (value instanceof Error && value.name === 'CallbackError' && typeof (value as CallbackError).code === 'string')
  );
}
