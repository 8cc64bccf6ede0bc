import type { IncomingMessage } from 'node:http';
import { ServiceError, isServiceError } from '../errors';

/** Form bodies of the API are small; anything larger is refused before it is buffered. */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * Named request parameters from the query string and, for POST, the form body.
 * A name given more than once with different values is refused: guessing which one the
 * caller meant could sign one value and store another.
 */
export class Params {
  private readonly sources: URLSearchParams[];

  constructor(...sources: URLSearchParams[]) {
    this.sources = sources;
  }

  get(name: string): string | undefined {
    const values = new Set<string>();
    for (const source of this.sources) for (const value of source.getAll(name)) values.add(value);
    if (values.size > 1) throw new ServiceError('INVALID_PARAMETER', `${name} is given more than once with different values`);
    const [value] = values;
    return value;
  }

  /** A required parameter: absent or blank is 101 with the parameter's name. */
  require(name: string): string {
    const value = this.get(name);
    if (value === undefined || value.trim() === '') throw new ServiceError('MISSING_PARAMETER', name);
    return value.trim();
  }
}

/**
 * Buffers a request body of at most `limit` bytes (`what` names it in the error), refusing a
 * larger one as soon as its declared or received size says so. Shared by the form API and SOAP.
 */
export async function readBody(req: IncomingMessage, limit: number, what = 'form body'): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new ServiceError('PAYLOAD_TOO_LARGE', `${what} over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new ServiceError('PAYLOAD_TOO_LARGE', `${what} over ${limit} bytes`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (isServiceError(error)) throw error;
    // A client that goes away mid-body is its own fault, not an internal error worth a log line.
    throw new ServiceError('INVALID_PARAMETER', 'the body was cut off');
  }
  return Buffer.concat(chunks);
}

/** Reads an `application/x-www-form-urlencoded` body; an empty body is allowed (all parameters may travel in the query). */
export async function readFormBody(req: IncomingMessage): Promise<URLSearchParams> {
  const body = await readBody(req, MAX_FORM_BYTES);
  if (body.length === 0) return new URLSearchParams();
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ServiceError('INVALID_PARAMETER', 'the body must be application/x-www-form-urlencoded');
  }
  return decodeForm(body);
}

/** The query string's parameters, decoded as strictly as a form body ({@link decodeForm}). */
export function queryParams(url: URL): URLSearchParams {
  return decodeForm(Buffer.from(url.search.slice(1), 'utf8'));
}

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;
const SPACE = 0x20;

// Keeps a leading U+FEFF as URLSearchParams does: it is part of the value, not a byte order mark.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Characters no text the service takes may hold: the C0 controls but tab, line feed and carriage
 * return. That is what XML 1.0 cannot carry, so SOAP clients cannot send them either and every
 * channel keeps the same rule; and PostgreSQL's text cannot hold U+0000 at all, where SQLite
 * would store it.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** Why `text` cannot be taken as sent (`name` holds a control character, naming it), or undefined when it can. */
export function controlCharacterProblem(name: string, text: string): string | undefined {
  const found = CONTROL.exec(text)?.[0];
  return found === undefined
    ? undefined
    : `${name} holds the control character U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One name or value: `+` is a space, `%XX` a byte (a `%` not followed by two hex digits stays as it is), then strict UTF-8. */
function decodeComponent(bytes: Uint8Array): string | undefined {
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const high = byte === PERCENT ? hexValue(bytes[i + 1]) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
    if (low >= 0) {
      out[length++] = high * 16 + low;
      i += 2;
    } else {
      out[length++] = byte === PLUS ? SPACE : byte;
    }
  }
  try {
    return STRICT_UTF8.decode(out.subarray(0, length));
  } catch {
    return undefined;
  }
}

/**
 * Parses `application/x-www-form-urlencoded` bytes (a form body, or a query string) as
 * URLSearchParams does, except that a name or value whose bytes, percent-decoded, are not UTF-8
 * is refused with 106 naming it: URLSearchParams would store U+FFFD in place of the bytes, and
 * the caller would never learn that its text was lost. A name or value holding a control
 * character ({@link controlCharacterProblem}) is refused with 106 too. The bytes are split at `&` and `=` before
 * decoding, which is safe as no byte of a multi-byte UTF-8 sequence is ASCII.
 */
export function decodeForm(bytes: Uint8Array): URLSearchParams {
  const form = new URLSearchParams();
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(AMPERSAND, start);
    if (end < 0) end = bytes.length;
    const pair = bytes.subarray(start, end);
    start = end + 1;
    if (pair.length === 0) continue;
    const equals = pair.indexOf(EQUALS);
    const name = decodeComponent(equals < 0 ? pair : pair.subarray(0, equals));
    if (name === undefined) throw new ServiceError('INVALID_PARAMETER', 'a parameter name is not valid UTF-8');
    const value = decodeComponent(equals < 0 ? new Uint8Array() : pair.subarray(equals + 1));
    if (value === undefined) throw new ServiceError('INVALID_PARAMETER', `${name} is not valid UTF-8`);
    const problem = controlCharacterProblem('a parameter name', name) ?? controlCharacterProblem(name, value);
    if (problem !== undefined) throw new ServiceError('INVALID_PARAMETER', problem);
    form.append(name, value);
  }
  return form;
}
