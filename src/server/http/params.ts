import type { IncomingMessage } from 'node:http';
import { ApiError, isApiError } from '../errors';

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
    if (values.size > 1) throw new ApiError('INVALID_PARAMETER', `${name} is given more than once with different values`);
    const [value] = values;
    return value;
  }

  /** A required parameter: absent or blank is 101 with the parameter's name. */
  require(name: string): string {
    const value = this.get(name);
    if (value === undefined || value.trim() === '') throw new ApiError('MISSING_PARAMETER', name);
    return value.trim();
  }
}

/**
 * Buffers a request body of at most `limit` bytes (`what` names it in the error), refusing a
 * larger one as soon as its declared or received size says so. Shared by the form API and SOAP.
 */
export async function readBody(req: IncomingMessage, limit: number, what = 'form body'): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new ApiError('PAYLOAD_TOO_LARGE', `${what} over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new ApiError('PAYLOAD_TOO_LARGE', `${what} over ${limit} bytes`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (isApiError(error)) throw error;
    // A client that goes away mid-body is its own fault, not an internal error worth a log line.
    throw new ApiError('INVALID_PARAMETER', 'the body was cut off');
  }
  return Buffer.concat(chunks);
}

/** Reads an `application/x-www-form-urlencoded` body; an empty body is allowed (all parameters may travel in the query). */
export async function readFormBody(req: IncomingMessage): Promise<URLSearchParams> {
  const body = await readBody(req, MAX_FORM_BYTES);
  if (body.length === 0) return new URLSearchParams();
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ApiError('INVALID_PARAMETER', 'the body must be application/x-www-form-urlencoded');
  }
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  try {
    return new URLSearchParams(text.decode(body));
  } catch {
    throw new ApiError('INVALID_PARAMETER', 'the body is not valid UTF-8');
  }
}
