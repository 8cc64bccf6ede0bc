import { describe, expect, it } from 'vitest';
import { isBucketUnavailable } from './s3Client';

const sdk = (fields: Record<string, unknown>, status?: number) =>
  Object.assign(new Error('failed'), fields, { $metadata: { httpStatusCode: status } });

describe('isBucketUnavailable', () => {
  it('counts a refused connect even without the SDK metadata (a streamed upload has none)', () => {
    expect(isBucketUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isBucketUnavailable(sdk({ code: 'ENOTFOUND' }))).toBe(true);
  });

  it('counts resets, timeouts and 5xx only from the SDK, since a browser socket raises resets too', () => {
    expect(isBucketUnavailable(sdk({ code: 'ECONNRESET' }))).toBe(true);
    expect(isBucketUnavailable(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isBucketUnavailable(sdk({ name: 'TimeoutError' }))).toBe(true);
    expect(isBucketUnavailable(sdk({ name: 'ServiceUnavailable' }, 503))).toBe(true);
    expect(isBucketUnavailable(sdk({ name: 'InternalError' }, 500))).toBe(true);
  });

  it("leaves the request's own failures alone: missing keys, refused credentials, bad input", () => {
    expect(isBucketUnavailable(sdk({ name: 'NoSuchKey' }, 404))).toBe(false);
    expect(isBucketUnavailable(sdk({ name: 'AccessDenied' }, 403))).toBe(false);
    expect(isBucketUnavailable(sdk({ name: 'InvalidArgument' }, 400))).toBe(false);
    expect(isBucketUnavailable(new Error('anything else'))).toBe(false);
    expect(isBucketUnavailable(undefined)).toBe(false);
  });
});
