import type { DetailedError, HttpResponse, HttpStack, Upload, UploadOptions } from 'tus-js-client';
// tus-js-client's entry builds default options of its own that the uploader replaces or never
// uses: a file reader for streams, React Native and Cordova (it passes wholeFileReader), a file
// fingerprint (it passes its own), a localStorage URL store (resume state lives on the service).
// Being made at import, they stay in the bundle: about 19 KB, 1.8 KB brotli, of the page's first
// open (test/widget.budget.test.ts). Its base class and browser HTTP stack are all that is needed;
// what the base class takes from url-parse and js-base64 comes from the browser (tusPlatform.ts).
import BaseUpload from 'tus-js-client/lib.esm/upload.js';
import XHRHttpStack from 'tus-js-client/lib.esm/browser/httpStack.js';
import NoopUrlStorage from 'tus-js-client/lib.esm/noopUrlStorage.js';
import { REQUEST_ID_HEADER } from '../../shared/requestId';
import type { FailureCode, ResultCodeOf } from '../../shared/resultCodes';
import { TICKET_HEADER } from '../../shared/uploadPage';
import { fetchProcessingStatus } from './processingStatus';

/**
 * A recording still being made (recorder/growingInput.ts): sent as it grows, its length declared
 * when it ends (tus Upload-Defer-Length).
 */
export interface GrowingFile {
  name: string;
  type: string;
  reader: TusFileReader;
  /** Whether a read waits for the recording: time without requests then is no stall. */
  waiting(): boolean;
}

export interface UploadRequest {
  /** The File itself: a fresh upload hands it whole to `xhr.send`, so it is never read into memory. Or a recording still being made. */
  file: File | GrowingFile;
  fingerprint: string;
  videoId: string;
  endpoint: string;
  ticket: string;
  /** An earlier upload of this same file to continue (from the boot data), or null to create one. */
  resume: { uploadUrl: string; offset: number } | null;
}

export interface UploadListeners {
  /** The service holds `offset` bytes of this file at `uploadUrl` (created, resumed, or a chunk confirmed): the way back to it after a cancel. */
  onStored(uploadUrl: string, offset: number): void;
  /** Bytes the service has or is receiving, counted from the start of the file. */
  onProgress(bytesSent: number, bytesTotal: number): void;
  onSuccess(): void;
  /**
   * The service said no (4xx): retrying cannot help. `code` is its ResultCode when the body carried
   * an AuthMsg; `requestId` the reply's X-Request-Id, for the site to quote to the service's operator.
   */
  onRefused(code: FailureCode | undefined, requestId: string | undefined): void;
  /**
   * A failure that may pass: no reply, a 5xx, a passing conflict, a stall, the browser offline.
   * The transport has stopped; `resume()` starts it again from what the service holds. When to do
   * that is the machine's retry policy (machine.ts, afterFailure). `bytesUploaded` is what the
   * service confirmed.
   */
  onNetworkError(bytesUploaded: number): void;
  /**
   * The page's origin reaches the service (its status answers) but not its upload path: every
   * tus request so far failed without a reply of the service's (a proxy that does not pass the
   * path on, or that breaks it). No retry can help; a setting must change.
   */
  onUnreachable(): void;
}

/** Pausing aborts the request in flight; the service keeps what it received, so resuming (or choosing the same file later) continues from there. */
export interface UploadControl {
  pause(): void;
  resume(): void;
}

export type StartUpload = (request: UploadRequest, listeners: UploadListeners) => UploadControl;

interface UploadTuning {
  /** No progress and no response for this long counts as a hung request: a failure that may pass. */
  stallMs: number;
  /**
   * Largest PATCH body, for services behind proxies that cap request bodies (boot
   * `uploadChunkBytes`); 0 sends the rest of the file in one PATCH.
   */
  chunkBytes: number;
}

const DEFAULT_TUNING = {
  stallMs: 30_000,
  chunkBytes: 0,
} as const satisfies UploadTuning;

type TusFileReader = NonNullable<UploadOptions['fileReader']>;

/**
 * Hands the File itself to the HTTP stack when a request covers all of it: Chromium sends a
 * disk-backed File straight from disk, while any `slice()` (even of the whole) goes through the
 * blob system at about half the speed. A resumed upload slices once, from the service's offset.
 */
export const wholeFileReader: TusFileReader = {
  async openFile(input: File) {
    return {
      size: input.size,
      slice: async (start: number, end: number) => ({
        value: start === 0 && end >= input.size ? input : input.slice(start, end),
        done: end >= input.size,
      }),
      close() {},
    };
  },
};

type TusUpload = Pick<Upload, 'start' | 'abort' | 'url'>;
type CreateTusUpload = (file: File | GrowingFile, options: UploadOptions) => TusUpload;

/** The browser's news that its connection went; tests pass a double. */
interface NetworkStatus {
  /** Returns the function that stops listening. */
  onOffline(listener: () => void): () => void;
}

const browserNetwork: NetworkStatus = {
  onOffline(listener) {
    window.addEventListener('offline', listener);
    return () => window.removeEventListener('offline', listener);
  },
};

export interface UploadDeps {
  /** Over the defaults (30 s stalls, no chunk limit). */
  tuning?: Partial<UploadTuning>;
  createUpload?: CreateTusUpload;
  network?: NetworkStatus;
  /** Whether the service answers on the page's own origin outside its upload path. @default its status (GET /UploadWidget/Status with the ticket) */
  serviceAnswers?: (ticket: string) => Promise<boolean>;
}

/**
 * `url` moved to the origin of the page at `pageHref`. The service names uploads by its
 * PUBLIC_URL (the Location of a creation, the resume state), which may be another name for the
 * same service than the one the page was loaded from (`localhost` where the integrator typed
 * `127.0.0.1`): a request there is cross-origin, CORS refuses it, and every upload would end as
 * "Connection lost". The page's own origin reached the service already, so it reaches tus too.
 */
export function onPageOrigin(url: string, pageHref: string): string {
  const target = new URL(url, pageHref);
  return `${new URL(pageHref).origin}${target.pathname}${target.search}`;
}

/** tus-js-client's HTTP stack with every request sent to the page's own origin ({@link onPageOrigin}). */
function pageOriginStack(base: HttpStack): HttpStack {
  return {
    createRequest: (method, url) => base.createRequest(method, onPageOrigin(url, location.href)),
    getName: () => base.getName(),
  };
}

/** The ResultCode of a JSON `{AuthMsg}` body, which is how the service words a refusal (a code of its table). */
function resultCode(body: string | undefined): FailureCode | undefined {
  try {
    const code = (JSON.parse(body ?? '') as { AuthMsg?: { ResultCode?: unknown } }).AuthMsg?.ResultCode;
    return typeof code === 'string' ? (code as FailureCode) : undefined;
  } catch {
    return undefined;
  }
}

function statusOf(error: Error): number {
  return (error as DetailedError).originalResponse?.getStatus() ?? 0;
}

/** A reply of the service's tus endpoint: tus's own header, or the service's AuthMsg (its gate's refusals). */
function fromService(res: HttpResponse): boolean {
  return !!res.getHeader('Tus-Resumable') || resultCode(res.getBody()) !== undefined;
}

/**
 * A failure that did not come from the service: no reply (status 0) or someone else's (a proxy's
 * 404, 405 or 502 page). Before any reply of the service's, it may mean its upload path is not
 * reachable from the page at all.
 */
function isStray(error: Error): boolean {
  const reply = (error as DetailedError).originalResponse;
  return !reply || reply.getStatus() === 0 || !fromService(reply);
}

/** Stray failures in a row, before any reply of the service's, that have the service's status asked. */
const STRAY_FAILURES_TO_ASK = 2;

const statusAnswers = async (ticket: string) => (await fetchProcessingStatus(ticket)) !== undefined;

/** The service's "Video Status Error": the video cannot take this upload at all (a 409 that is final). */
const VIDEO_STATUS_ERROR: ResultCodeOf<'WRONG_STATE'> = '107';

/**
 * A locked upload (423) or tus's own offset conflict (409), which the service words with an
 * AuthMsg of its own (106) or none: the service has not refused the file. Seen when a request cut
 * off mid-PATCH is still being written while the retry asks for the offset.
 */
function isPassingConflict(error: Error): boolean {
  const status = statusOf(error);
  if (status === 423) return true;
  return status === 409 && resultCode((error as DetailedError).originalResponse?.getBody()) !== VIDEO_STATUS_ERROR;
}

/** What may pass on a second try: no reply, a 5xx, a passing conflict (423, tus's 409). A 4xx from the service itself is final. */
function mayPass(error: Error): boolean {
  const status = statusOf(error);
  return status < 400 || status >= 500 || isPassingConflict(error);
}

/**
 * One file's upload over tus, with the ticket on every request and a stall watchdog: tus-js-client's
 * XHR request can hang forever after an abort or a silent network drop. It reports facts and never
 * retries by itself (tus-js-client's retries are off): the machine's retry policy decides.
 */
export function tusUpload(request: UploadRequest, listeners: UploadListeners, deps: UploadDeps = {}): UploadControl {
  const {
    createUpload = (file, options) => new BaseUpload(file, { ...BaseUpload.defaultOptions, urlStorage: new NoopUrlStorage(), ...options }),
    network = browserNetwork,
    serviceAnswers = statusAnswers,
  } = deps;
  const tuning: UploadTuning = { ...DEFAULT_TUNING, ...deps.tuning };
  const { file } = request;
  const growing = 'reader' in file ? file : undefined;
  let confirmed = request.resume?.offset ?? 0;
  let lastActivity = Date.now();
  let watchdog: ReturnType<typeof setInterval> | undefined;
  let stopOfflineWatch: (() => void) | undefined;
  const touch = () => {
    lastActivity = Date.now();
  };
  const stopWatchdog = () => {
    clearInterval(watchdog);
    watchdog = undefined;
    stopOfflineWatch?.();
    stopOfflineWatch = undefined;
  };
  /** Stops, and reports a failure that may pass. */
  const fail = () => {
    stopWatchdog();
    void upload.abort();
    listeners.onNetworkError(confirmed);
  };

  // Whether any reply of the service's tus endpoint has come (then its path is reachable), and
  // the stray failures before one. A page loaded through an address whose proxy does not pass the
  // upload path on would otherwise be retried for about 20 s and end as "connection lost".
  let reached = false;
  let strayFailures = 0;
  let unreachable = false;
  /** Asks the service's status on the page's origin: answered there, its upload path is what fails. */
  const checkReach = async (): Promise<boolean> => {
    const answers = await serviceAnswers(request.ticket).catch(() => false);
    if (!answers || reached || unreachable) return false;
    unreachable = true;
    stopWatchdog();
    void upload.abort();
    listeners.onUnreachable();
    return true;
  };

  const upload = createUpload(file, {
    endpoint: request.endpoint,
    httpStack: pageOriginStack(new XHRHttpStack({})),
    uploadUrl: request.resume?.uploadUrl ?? null,
    chunkSize: tuning.chunkBytes > 0 ? tuning.chunkBytes : Number.POSITIVE_INFINITY,
    fileReader: growing?.reader ?? wholeFileReader,
    uploadLengthDeferred: !!growing,
    retryDelays: null,
    headers: { [TICKET_HEADER]: request.ticket },
    metadata: { filename: file.name, filetype: file.type || 'application/octet-stream', fingerprint: request.fingerprint },
    // The service holds the resume state (boot.resume); browser storage is refused in cross-site iframes anyway.
    storeFingerprintForResuming: false,
    // tus-js-client's default fingerprint ignores which video this is; never let it match another video's upload.
    fingerprint: async () => `${request.videoId}:${request.fingerprint}`,
    onBeforeRequest(req) {
      touch();
      // A PATCH starts at the offset the service confirmed (at creation, or its reply to HEAD on a
      // resume or retry): with the whole file in one request, this is the only news of it before the end.
      const offset = req.getMethod() === 'PATCH' ? Number(req.getHeader('Upload-Offset')) : NaN;
      if (offset > confirmed && upload.url) {
        confirmed = offset;
        listeners.onStored(upload.url, confirmed);
      }
    },
    onAfterResponse(_req, res) {
      touch();
      if (fromService(res)) reached = true;
    },
    onUploadUrlAvailable() {
      if (upload.url) listeners.onStored(upload.url, confirmed);
    },
    onProgress(bytesSent, bytesTotal) {
      touch();
      listeners.onProgress(bytesSent, bytesTotal);
    },
    onChunkComplete(_chunk, bytesAccepted) {
      confirmed = Math.max(confirmed, bytesAccepted);
      if (upload.url) listeners.onStored(upload.url, confirmed);
    },
    onSuccess() {
      stopWatchdog();
      listeners.onSuccess();
    },
    onError(error) {
      stopWatchdog();
      if (unreachable) return;
      const stray = !reached && isStray(error);
      const reply = (error as DetailedError).originalResponse;
      const refused = () => listeners.onRefused(resultCode(reply?.getBody()), reply?.getHeader(REQUEST_ID_HEADER) || undefined);
      if (mayPass(error)) {
        if (stray && ++strayFailures === STRAY_FAILURES_TO_ASK) void checkReach();
        listeners.onNetworkError(confirmed);
      }
      // Someone else's refusal (a proxy's 404 or 405) before the service ever answered: whose is it?
      else if (stray) void checkReach().then((told) => told || refused());
      else refused();
    },
  });

  const run = () => {
    touch();
    upload.start();
    watchdog ??= setInterval(
      () => {
        // A read waiting for the recording's next chunk (or for the take to be kept) is no stall.
        if (growing?.waiting()) touch();
        if (Date.now() - lastActivity >= tuning.stallMs) fail();
      },
      Math.max(250, tuning.stallMs / 4),
    );
    // A request already under way may neither fail nor progress when the connection drops: report it at once.
    stopOfflineWatch ??= network.onOffline(fail);
  };

  run();
  return {
    pause() {
      stopWatchdog();
      void upload.abort();
    },
    // start() after an abort or a failure asks the service for its offset (HEAD) and continues from there.
    resume() {
      run();
    },
  };
}
