import type { BrowserContext, Frame, Locator, Page, Request } from 'playwright-core';
import { UPLOAD_PAGE_PATH } from '../../src/shared/uploadPage';
import type {
  UploadErrorInfo,
  UploadFailureInfo,
  UploadProcessedInfo,
  UploadProgressInfo,
  UploadStateInfo,
  UploadSuccessInfo,
} from '../../src/shared/widgetConfig';

export type RecordedEvent =
  | { type: 'success'; info: UploadSuccessInfo }
  | { type: 'failure'; info: UploadFailureInfo }
  | { type: 'error'; info: UploadErrorInfo }
  | { type: 'thrown'; info: { name: string; message: string } };

/** What the host page's handlers recorded so far, in order. */
export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { events: RecordedEvent[] }).events);
}

/** A progress, state or processing event as the host page recorded it, with its `performance.now()`. */
export type RecordedUpdate = (
  | { type: 'progress'; info: UploadProgressInfo }
  | { type: 'state'; info: UploadStateInfo }
  | { type: 'processed'; info: UploadProcessedInfo }
) & { at: number };

/** How the handle's `done` settled (the rejection's fields copied), or null while it has not. */
export type RecordedOutcome =
  { resolved: UploadSuccessInfo } | { rejected: { name: string; kind: string; code?: string; message: string } } | null;

/** Polls until `predicate` holds for the recorded updates; returns them. */
export async function waitForUpdates(
  page: Page,
  predicate: (list: RecordedUpdate[]) => boolean,
  timeoutMs = 60_000,
): Promise<RecordedUpdate[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await page.evaluate(() => (window as unknown as { updates: RecordedUpdate[] }).updates);
    if (predicate(list)) return list;
    if (Date.now() > deadline)
      throw new Error(`updates never matched within ${timeoutMs} ms; recorded: ${JSON.stringify(list.slice(-20))}`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** Polls until the handle's `done` has settled; returns how. */
export async function waitForOutcome(page: Page, timeoutMs = 60_000): Promise<NonNullable<RecordedOutcome>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await page.evaluate(() => (window as unknown as { outcome: RecordedOutcome }).outcome);
    if (outcome) return outcome;
    if (Date.now() > deadline) throw new Error(`done never settled within ${timeoutMs} ms`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** Polls until `predicate` holds for the recorded events; returns them. */
export async function waitForEvents(
  page: Page,
  predicate: (list: RecordedEvent[]) => boolean,
  timeoutMs = 60_000,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await events(page);
    if (predicate(list)) return list;
    if (Date.now() > deadline) throw new Error(`events never matched within ${timeoutMs} ms; recorded: ${JSON.stringify(list)}`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

export function openButton(page: Page | Frame): Locator {
  return page.getByRole('button', { name: 'Open upload' });
}

/** Clicks "Open upload" and returns the popup window it opens. */
export async function openPopup(page: Page): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), openButton(page).click()]);
  await popup.waitForLoadState('domcontentloaded');
  return popup;
}

/** The `ErrorCode : <code>, ErrorMessage : <message>` line of an error page's visible text. */
export function errorLineOf(text: string): string | undefined {
  return text.split('\n').find((line) => line.startsWith('ErrorCode : '));
}

/** Accessible name of the overlay layer and of its close button (English UI). */
export const DIALOG_NAME = 'Upload video';
export const CLOSE_NAME = 'Close';

function isUploadPage(frame: Frame): boolean {
  return new URL(frame.url(), 'http://x.invalid').pathname === UPLOAD_PAGE_PATH;
}

/** Waits for a frame of the page that satisfies `predicate`. */
export async function waitForFrame(page: Page, predicate: (frame: Frame) => boolean, what: string, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = page.frames().find(predicate);
    if (frame) {
      await frame.waitForLoadState('domcontentloaded');
      return frame;
    }
    if (Date.now() > deadline) throw new Error(`no frame of ${what} in ${page.url()} within ${timeoutMs} ms`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** The frame that runs the upload page inside the overlay (an out-of-process frame: the service is another site). */
export function uploadFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  return waitForFrame(page, isUploadPage, UPLOAD_PAGE_PATH, timeoutMs);
}

/** Every element and the head/body children of a document: the widget must leave these as they were. */
export function domCensus(
  where: Page | Frame,
): Promise<{ elements: number; body: number; head: number; bodyStyle: string; htmlStyle: string }> {
  return where.evaluate(() => ({
    elements: document.getElementsByTagName('*').length,
    body: document.body.children.length,
    head: document.head.children.length,
    bodyStyle: document.body.getAttribute('style') ?? '',
    htmlStyle: document.documentElement.getAttribute('style') ?? '',
  }));
}

/** Requests the browser context sends to the service, from now on. */
export function recordServiceRequests(context: BrowserContext, serviceUrl: string): { urls: string[]; stop(): void } {
  const urls: string[] = [];
  const listener = (request: { url(): string }) => {
    if (request.url().startsWith(serviceUrl)) urls.push(request.url());
  };
  context.on('request', listener);
  return { urls, stop: () => context.off('request', listener) };
}

/** The uploader's file button, found by its label as a user would. */
export function chooseFileButton(where: Page | Frame): Locator {
  return where.getByRole('button', { name: /choose|select/i });
}

/** Picks a file through the browser's file chooser, opened by the uploader's button. */
export async function chooseFile(where: Page | Frame, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  // The chooser opens on the page that owns the uploader: the popup itself, or the host page of the overlay's frame.
  const owner = 'page' in where && typeof where.page === 'function' ? (where as Frame).page() : (where as Page);
  const [chooser] = await Promise.all([owner.waitForEvent('filechooser'), chooseFileButton(where).click()]);
  await chooser.setFiles(file);
}

/** The window's position and outer size on the screen. */
export function windowGeometry(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate(() => ({ x: window.screenX, y: window.screenY, width: window.outerWidth, height: window.outerHeight }));
}

/** The uploader's progress bar value (percent), or null before an upload shows one. */
export async function progressPercent(where: Page | Frame): Promise<number | null> {
  const bar = where.getByRole('progressbar', { name: 'Upload progress' });
  if ((await bar.count()) === 0) return null;
  const value = await bar.getAttribute('aria-valuenow');
  return value === null ? null : Number(value);
}

/** Waits until the progress bar shows at least `percent`. */
export async function waitForProgress(where: Page | Frame, percent: number, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await progressPercent(where);
    if (value !== null && value >= percent) return value;
    if (Date.now() > deadline) throw new Error(`progress stayed at ${value}% (wanted ${percent}%) for ${timeoutMs} ms`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

export interface TusRequest {
  method: string;
  url: string;
  /** Upload-Offset of a PATCH. */
  offset: number | null;
  /** Bytes in the request body (Content-Length as sent). */
  bodyBytes: number;
}

/**
 * tus requests (creation POST, HEAD, PATCH) any page of the context sends to the service, from now
 * on, in the order sent. Upload-Offset is set by script, so it is in the request's first headers;
 * Content-Length is known only once sent: `settle()` waits for those.
 */
export function recordTusRequests(
  context: BrowserContext,
  serviceUrl: string,
): { list: TusRequest[]; settle(): Promise<TusRequest[]>; stop(): void } {
  const list: TusRequest[] = [];
  const pending: Promise<void>[] = [];
  const listener = (request: Request) => {
    if (!request.url().startsWith(`${serviceUrl}/UploadWidget/files`) || request.method() === 'OPTIONS') return;
    const offset = request.headers()['upload-offset'];
    const entry: TusRequest = {
      method: request.method(),
      url: request.url(),
      offset: offset === undefined ? null : Number(offset),
      bodyBytes: 0,
    };
    list.push(entry);
    pending.push(
      request
        .allHeaders()
        .then((headers) => {
          entry.bodyBytes = Number(headers['content-length'] ?? 0);
        })
        .catch(() => undefined),
    );
  };
  context.on('request', listener);
  return {
    list,
    async settle() {
      await Promise.all(pending);
      return list;
    },
    stop: () => context.off('request', listener),
  };
}

/** What the uploader handed to one `XMLHttpRequest.send`: the File itself, a slice of it (a Blob), or something else. */
export interface SentBody {
  kind: 'file' | 'blob' | 'none' | 'other';
  bytes: number;
}

/**
 * Records, in every frame of `context`, what each `XMLHttpRequest.send` was given: the fast path
 * must hand Chromium the File itself, which it streams from disk without copying. Read the list
 * with {@link sentBodies} from the frame that uploads.
 */
export async function recordSentBodies(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const sent: SentBody[] = [];
    (window as unknown as { sentBodies: SentBody[] }).sentBodies = sent;
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (body) {
      if (body instanceof File) sent.push({ kind: 'file', bytes: body.size });
      else if (body instanceof Blob) sent.push({ kind: 'blob', bytes: body.size });
      else sent.push({ kind: body == null ? 'none' : 'other', bytes: 0 });
      send.call(this, body);
    };
  });
}

export function sentBodies(where: Page | Frame): Promise<SentBody[]> {
  return where.evaluate(() => (window as unknown as { sentBodies: SentBody[] }).sentBodies.filter((body) => body.kind !== 'none'));
}
