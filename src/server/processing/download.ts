import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ServiceConfig } from '../config';
import type { ServiceContext } from '../context';
import { mediaDir } from '../media/paths';
import { isNoSpace } from '../outages';
import { anyAddress, publicAddressesOnly, type AddressPolicy } from '../net/addressPolicy';
import { bareHostname, pinnedLookup, systemResolver, vetHost, type Resolver } from '../net/vettedHost';
import type { Video } from '../storage/videos';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/privateModes';
import { watchRate } from './rateFloor';
import { sourceExtension } from './sourceExtension';

/** Why a download failed; the code starts the message that ends up in `status_reason`. */
export type DownloadFailure =
  | 'bad-url'
  | 'private-address'
  | 'unresolvable'
  | 'too-many-redirects'
  | 'http-status'
  | 'too-large'
  /** The source would not fit in the room left in the app's `storageBytes` quota. */
  | 'storage-quota'
  | 'timeout'
  /** The source sent, on average, less than the floor over a whole window (a trickle). */
  | 'too-slow'
  | 'network'
  | 'storage'
  /** The caller's signal fired (service shutting down): not the source's fault, so the job may be retried. */
  | 'aborted';

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  readonly reason: DownloadFailure;

  constructor(reason: DownloadFailure, detail: string) {
    super(`${reason}: ${detail}`);
    this.reason = reason;
  }
}

/** `instanceof` alone fails across module copies; the constant name is checked too. */
export function isDownloadError(value: unknown): value is DownloadError {
  return value instanceof DownloadError || (value instanceof Error && value.name === 'DownloadError' && 'reason' in value);
}

export interface DownloadOptions {
  /** @default config.downloadMaxBytes */
  maxBytes: number;
  /** The room left in the app's `storageBytes` quota; more bytes fail with `storage-quota`. @default no quota */
  quotaRoom: number;
  /** The whole download, all hops included. @default config.downloadTimeoutMs */
  timeoutMs: number;
  /** Longest silence on the socket. @default config.downloadIdleTimeoutMs */
  idleTimeoutMs: number;
  /** The least average rate over every `rateWindowMs`, from the first request on; 0 turns it off. @default config.downloadMinBytesPerS */
  minBytesPerS: number;
  /** @default config.downloadRateWindowMs */
  rateWindowMs: number;
  /** Redirects followed; one more fails with `too-many-redirects`. @default 5 (the limit) */
  maxRedirects: number;
  /** Which resolved addresses may be contacted, checked on every hop. @default public only, unless `config.sourceUrlAllowPrivate` */
  addressPolicy: AddressPolicy;
  /** @default the system's `dns.lookup` */
  resolve: Resolver;
}

function downloadDefaults(config: ServiceConfig): DownloadOptions {
  return {
    maxBytes: config.downloadMaxBytes,
    quotaRoom: Number.POSITIVE_INFINITY,
    timeoutMs: config.downloadTimeoutMs,
    idleTimeoutMs: config.downloadIdleTimeoutMs,
    minBytesPerS: config.downloadMinBytesPerS,
    rateWindowMs: config.downloadRateWindowMs,
    maxRedirects: 5,
    addressPolicy: config.sourceUrlAllowPrivate ? anyAddress : publicAddressesOnly,
    resolve: systemResolver,
  } satisfies DownloadOptions;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const TEMP_PREFIX = '.source-';
const TEMP_SUFFIX = '.part';

function sourceUrl(raw: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new DownloadError('bad-url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadError('bad-url', `${url.protocol} is not http or https`);
  // Credentials would be replayed to whatever host a redirect names; apps sign URLs in the query instead.
  if (url.username || url.password) throw new DownloadError('bad-url', 'credentials in the URL are not sent');
  return url;
}

/** A DNS lookup cannot be cancelled; this stops waiting for it when the download's time is up. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** One GET to an address checked just before; resolves with the reply headers. */
async function requestHop(url: URL, options: DownloadOptions, signal: AbortSignal, onIdle: () => void): Promise<IncomingMessage> {
  const hostname = bareHostname(url);
  const vetted = await untilAborted(vetHost(hostname, options.resolve, options.addressPolicy), signal);
  if (!vetted.ok) {
    if (vetted.refused === 'unresolvable') throw new DownloadError('unresolvable', `${hostname} does not resolve`);
    // The address itself stays in the service: naming it would let apps map the internal network.
    throw new DownloadError('private-address', `${hostname} is not a public address`);
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      // No pooled sockets: each hop must connect to the address vetted for it.
      agent: false,
      lookup: pinnedLookup(vetted.addresses),
      signal,
      timeout: options.idleTimeoutMs,
      headers: { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': 'open-video-upload' },
    });
    req.on('timeout', onIdle);
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Follows redirects by hand so every hop is vetted again; returns the final 2xx reply and the URLs visited. */
async function openSource(first: URL, options: DownloadOptions, signal: AbortSignal, onIdle: () => void) {
  const visited = [first];
  for (;;) {
    const url = visited[visited.length - 1]!;
    const response = await requestHop(url, options, signal, onIdle);
    const status = response.statusCode ?? 0;
    if (REDIRECT_STATUSES.has(status)) {
      response.destroy();
      const location = response.headers.location;
      if (!location) throw new DownloadError('http-status', `HTTP ${status} without a Location`);
      if (visited.length > options.maxRedirects)
        throw new DownloadError('too-many-redirects', `more than ${options.maxRedirects} redirects`);
      visited.push(sourceUrl(location, url));
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new DownloadError('http-status', `HTTP ${status}`);
    }
    const length = Number(response.headers['content-length']);
    if (Number.isFinite(length) && length > options.maxBytes) {
      response.destroy();
      throw new DownloadError('too-large', `${length} bytes announced, limit ${options.maxBytes}`);
    }
    if (Number.isFinite(length) && length > options.quotaRoom) {
      response.destroy();
      throw quotaFull(options.quotaRoom);
    }
    return { response, visited };
  }
}

function quotaFull(room: number): DownloadError {
  return new DownloadError('storage-quota', `the source is larger than the ${room} bytes left in the app's storageBytes quota`);
}

/** Counts bytes as they pass, so a reply without (or lying about) Content-Length is cut at the limits too. */
function byteLimit(options: DownloadOptions): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > options.maxBytes) callback(new DownloadError('too-large', `more than ${options.maxBytes} bytes`));
      else if (seen > options.quotaRoom) callback(quotaFull(options.quotaRoom));
      else callback(null, chunk);
    },
  });
}

/** Temp files from a download the process did not live to finish; one download per video runs at a time. */
async function removeStaleTempFiles(dir: string): Promise<void> {
  const names = await readdir(dir);
  await Promise.all(
    names.filter((name) => name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)).map((name) => rm(join(dir, name), { force: true })),
  );
}

function asDownloadError(error: unknown): DownloadError {
  if (isDownloadError(error)) return error;
  const failure = error as NodeJS.ErrnoException;
  // Errors from the file system carry a path (a write through an open file handle does not, hence
  // the codes of a full disk); everything else came from the network.
  if (failure?.path !== undefined || isNoSpace(failure)) return new DownloadError('storage', failure.code ?? 'cannot write the file');
  return new DownloadError('network', failure?.code ?? failure?.message ?? String(error));
}

/**
 * Streams `video.sourcePath` to `<dir>/source<ext>` (`dir` being DATA_DIR/media/<videoId> unless
 * given: scratch space when the files live in S3) through a temp file
 * renamed at the end, so the stored name only ever points at a complete file, and returns that
 * name (`source.mp4`). Every failure, caller abort included, throws a {@link DownloadError} and
 * leaves no partial file.
 */
export async function downloadSource(
  service: ServiceContext,
  video: Video,
  signal: AbortSignal,
  overrides: Partial<DownloadOptions> = {},
  dir = mediaDir(service.config.dataDir, video.id),
): Promise<string> {
  const options: DownloadOptions = { ...downloadDefaults(service.config), ...overrides };
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const stalled = new AbortController();
  const rate = watchRate(options.minBytesPerS, options.rateWindowMs);
  const stop = AbortSignal.any([signal, deadline, stalled.signal, rate.signal]);
  const onIdle = () => stalled.abort();

  const temp = join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`);
  try {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await removeStaleTempFiles(dir);
    const { response, visited } = await openSource(sourceUrl(video.sourcePath), options, stop, onIdle);
    // The file is opened before any byte flows: a write stream opened lazily could create it after
    // a failed pipeline's clean-up below had already run, stranding a .part file.
    const out = await open(temp, 'wx', PRIVATE_FILE_MODE);
    await pipeline(response, rate.meter(), byteLimit(options), out.createWriteStream(), { signal: stop });
    const name = `source${sourceExtension(visited, response.headers['content-type'])}`;
    await rename(temp, join(dir, name));
    return name;
  } catch (error) {
    await rm(temp, { force: true });
    // Which signal fired says more than the AbortError it produced.
    if (signal.aborted) throw new DownloadError('aborted', 'stopped by the service');
    if (deadline.aborted) throw new DownloadError('timeout', `not finished within ${options.timeoutMs} ms`);
    if (stalled.signal.aborted) throw new DownloadError('timeout', `no data for ${options.idleTimeoutMs} ms`);
    const slow = rate.shortfall();
    if (slow)
      throw new DownloadError(
        'too-slow',
        `${slow.bytes} bytes in the last ${slow.windowMs} ms, under the floor of ${slow.minBytesPerS} bytes/s`,
      );
    throw asDownloadError(error);
  } finally {
    rate.stop();
  }
}
