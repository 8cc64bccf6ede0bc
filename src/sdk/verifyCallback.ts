import { CallbackError } from './errors';
import { sameText, signBody, signToken } from './signing';
import { isVideoStatus, type VideoStatus } from '../shared/videoStatus';

/** Node's `req.headers` (IncomingHttpHeaders) or a fetch `Headers`. */
export type CallbackHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** The form fields the service posts (application/x-www-form-urlencoded): the raw body as text or bytes, or parsed. */
export type CallbackBody = string | Uint8Array | URLSearchParams | Record<string, string | string[] | undefined>;

export interface VerifyCallbackOptions {
  appId: string;
  appSecret: string;
  /**
   * The request's headers: `X-Signature` must be the HMAC of the body. Pass the raw body (string
   * or bytes) then; a parsed body is re-encoded the way the service encodes it. Required unless
   * `allowUnsigned` is set.
   */
  headers?: CallbackHeaders;
  /**
   * Accept a callback checked by its Token alone, without `headers`. Weaker: the Token is
   * `md5(Timestamp + AppSecret)`, the same value a widget config hands to every browser, so
   * anyone who opened the widget in the last 600 s can forge a callback that passes.
   * @default false
   */
  allowUnsigned?: boolean;
}

export interface VerifiedCallback {
  videoId: string;
  /** One of the spec's states 0–8; the service reports 1 processed, 4 download failed, 7 transcoding failed. */
  videoStatus: VideoStatus;
}

/** The spec allows 600 s either side of the clock. */
const WINDOW_SECONDS = 600;
const FIELDS = ['VideoId', 'VideoStatus', 'AppId', 'Timestamp', 'Token'] as const;
/** The spec's video states, 0 to 8. */

const badInput = (field: string, message: string) => new CallbackError('invalid-input', field, `verifyCallback: ${message}`);

const isFieldValue = (value: unknown) =>
  value === undefined || typeof value === 'string' || (Array.isArray(value) && value.every((one) => typeof one === 'string'));

function formOf(body: CallbackBody): URLSearchParams {
  if (typeof body === 'string' || body instanceof URLSearchParams) return new URLSearchParams(body);
  if (body instanceof Uint8Array) return new URLSearchParams(new TextDecoder().decode(body));
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badInput('body', 'the body must be the raw form string or bytes, URLSearchParams or an object of fields');
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    // A number or an object would be posted as "[object Object]" and checked as that.
    if (!isFieldValue(value)) throw badInput('body', 'each field of a parsed body must be a string or an array of strings');
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) form.append(name, one);
  }
  return form;
}

function signatureHeader(headers: CallbackHeaders): string | string[] | undefined {
  if (typeof headers.get === 'function') {
    const value: unknown = (headers as { get(name: string): unknown }).get('x-signature');
    if (value !== null && value !== undefined && typeof value !== 'string')
      throw badInput('headers', '`headers.get` must return a string or null');
    return value ?? undefined;
  }
  const record = headers as Record<string, unknown>;
  const name = Object.keys(record).find((key) => key.toLowerCase() === 'x-signature');
  const value = name === undefined ? undefined : record[name];
  if (!isFieldValue(value)) throw badInput('headers', 'a header must be a string or an array of strings');
  return value as string | string[] | undefined;
}

/**
 * The options' shapes, checked before anything else: a wrong one (a `null` for `headers`, say)
 * is the caller's mistake, told as such rather than as a TypeError from deep inside.
 */
function checkOptions(options: VerifyCallbackOptions): void {
  if (typeof options !== 'object' || options === null)
    throw badInput('options', 'the options must be an object { appId, appSecret, headers }');
  if (typeof options.appSecret !== 'string' || options.appSecret === '') throw badInput('appSecret', '`appSecret` is required');
  if (typeof options.appId !== 'string' || options.appId === '') throw badInput('appId', '`appId` is required');
  const { headers, allowUnsigned } = options;
  if (headers !== undefined && (typeof headers !== 'object' || headers === null || Array.isArray(headers)))
    throw badInput('headers', "`headers` must be the request's headers (an object or a fetch Headers), or left out");
  if (allowUnsigned !== undefined && typeof allowUnsigned !== 'boolean')
    throw badInput('allowUnsigned', '`allowUnsigned` must be true or false');
}

/**
 * Checks a status callback from the service, synchronously: every field present once, the
 * AppId, the Token (compared in constant time), the `X-Signature` HMAC of the body (unless
 * `allowUnsigned`), the Timestamp within ±600 s and a VideoStatus of the spec (0–8). Throws a
 * {@link CallbackError} naming the first failure; answer such a request with 401 (the service
 * retries a genuine one). Without `headers` and without `allowUnsigned` it throws the
 * `signature-required` CallbackError for every callback: the Token alone proves nothing, since
 * browsers see it. Arguments of the wrong shape throw the `invalid-input` CallbackError.
 */
export function verifyCallback(body: CallbackBody, options: VerifyCallbackOptions): VerifiedCallback {
  checkOptions(options);
  if (options.headers === undefined && options.allowUnsigned !== true) {
    throw new CallbackError(
      'signature-required',
      'X-Signature',
      "verifyCallback: pass the request's `headers` so X-Signature is checked (or `allowUnsigned: true`, which browsers can forge)",
    );
  }
  const form = formOf(body);
  const fields = {} as Record<(typeof FIELDS)[number], string>;
  for (const name of FIELDS) {
    const values = form.getAll(name);
    if (values.length > 1) throw new CallbackError('duplicate-field', name, `verifyCallback: ${name} appears ${values.length} times`);
    if (!values[0]) throw new CallbackError('missing-field', name, `verifyCallback: ${name} is missing`);
    fields[name] = values[0];
  }
  if (!sameText(fields.AppId, options.appId))
    throw new CallbackError('wrong-app', 'AppId', 'verifyCallback: the callback is for another AppId');
  if (!sameText(fields.Token, signToken(fields.Timestamp, options.appSecret))) {
    throw new CallbackError('wrong-token', 'Token', "verifyCallback: the Token is not signed with this app's secret");
  }
  if (options.headers !== undefined) {
    const header = signatureHeader(options.headers);
    if (Array.isArray(header))
      throw new CallbackError('bad-signature', 'X-Signature', 'verifyCallback: X-Signature appears more than once');
    const raw = typeof body === 'string' || body instanceof Uint8Array ? body : form.toString();
    if (!sameText(header ?? '', signBody(raw, options.appSecret))) {
      throw new CallbackError(
        'bad-signature',
        'X-Signature',
        header ? 'verifyCallback: X-Signature does not match the body' : 'verifyCallback: X-Signature is missing',
      );
    }
  }
  if (!/^\d{1,12}$/.test(fields.Timestamp) || Math.abs(Number(fields.Timestamp) - Date.now() / 1000) > WINDOW_SECONDS) {
    throw new CallbackError(
      'stale-timestamp',
      'Timestamp',
      `verifyCallback: the Timestamp is more than ${WINDOW_SECONDS} s from this clock`,
    );
  }
  if (!/^\d$/.test(fields.VideoStatus) || !isVideoStatus(Number(fields.VideoStatus)))
    throw new CallbackError('invalid-field', 'VideoStatus', 'verifyCallback: VideoStatus is not one of the states 0 to 8');
  return { videoId: fields.VideoId, videoStatus: Number(fields.VideoStatus) as VideoStatus };
}
