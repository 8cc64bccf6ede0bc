import { createHash } from 'node:crypto';
import { HeadBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config';

/**
 * The client settings every S3-compatible server takes (docs/storage.md): checksums only where
 * S3 requires them, since the SDK's default `aws-chunked` bodies with trailing checksums are
 * refused by several servers (Swift's s3api answers 501), and a short connect timeout, so a lost
 * bucket fails a request in seconds instead of holding it.
 */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  // The SDK's multi-line notice about future Node versions would break the one-JSON-line-per-entry
  // log on stderr (the service runs on Node >= 20.19); an operator may still set it to 'false'.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return {
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    // The SDK writes some failures to the console on its own (as plain text, beside the JSON log);
    // the service logs every failure it acts on itself.
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
  };
}

type Headers = Record<string, string>;

/**
 * DeleteObjects must carry a checksum; the SDK sends CRC32, which S3 accepts but Swift and older
 * servers do not (400 without Content-MD5). The MD5 of the body is what every server takes.
 * Runs after the SDK's checksum step (same step, lower priority), so its headers are replaced.
 */
export function useContentMd5ForDeleteObjects(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { headers?: Headers; body?: unknown };
      if (context.commandName === 'DeleteObjectsCommand' && request.headers && typeof request.body === 'string') {
        for (const name of Object.keys(request.headers))
          if (name.toLowerCase().startsWith('x-amz-checksum-') || name.toLowerCase() === 'x-amz-sdk-checksum-algorithm')
            delete request.headers[name];
        request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
      }
      return next(args);
    },
    { step: 'build', priority: 'low', name: 'contentMd5ForDeleteObjects' },
  );
}

/** A client with the settings above, for the service's own reads and writes of the bucket. */
export function s3ClientFor(settings: S3Settings): S3Client {
  const client = new S3Client(s3ClientConfig(settings));
  useContentMd5ForDeleteObjects(client);
  return client;
}

// Failures to connect are the bucket's whichever call met them; a streamed upload's failure comes
// without the SDK's `$metadata`. Transport errors later in a call (a reset, a broken pipe) count
// only with `$metadata`, as a browser's socket closing mid-request raises them too.
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const TRANSPORT_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/** True when an S3 call failed because the bucket's server cannot be reached or is down (5xx), not because the request was wrong. */
export function isBucketUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, $metadata } = error as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } };
  if (typeof code === 'string' && CONNECT_CODES.has(code)) return true;
  if ($metadata === undefined) return false;
  if (typeof code === 'string' && TRANSPORT_CODES.has(code)) return true;
  if (name === 'TimeoutError' || name === 'RequestTimeout') return true;
  const status = $metadata.httpStatusCode;
  return status === 500 || status === 502 || status === 503 || status === 504;
}

/** Why the bucket cannot be used now, naming it (never a key), or undefined when it answers. */
export async function bucketProblem(client: S3Client, settings: S3Settings): Promise<string | undefined> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
    return undefined;
  } catch (error) {
    const { code, name, $metadata } = error as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
    const status = $metadata?.httpStatusCode;
    const why =
      code ?? (status === 404 ? 'no such bucket' : status === 403 ? 'access denied' : status ? `HTTP ${status}` : (name ?? String(error)));
    return `S3_BUCKET "${settings.bucket}" at ${settings.endpoint ?? 'AWS S3'} cannot be reached (${why})`;
  }
}
