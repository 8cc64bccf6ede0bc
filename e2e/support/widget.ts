import type { BrowserContext, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { UPLOAD_PAGE_PATH } from '../../src/shared/uploadPage';
import type { UploadErrorInfo, UploadFailureInfo, UploadSuccessInfo } from '../../src/shared/widgetConfig';

export type RecordedEvent =
  | { type: 'success'; info: UploadSuccessInfo }
  | { type: 'failure'; info: UploadFailureInfo }
  | { type: 'error'; info: UploadErrorInfo }
  | { type: 'thrown'; info: { name: string; message: string } };

/** What the host page's handlers recorded so far, in order. */
export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { events: RecordedEvent[] }).events);
}

/** Polls until `predicate` holds for the recorded events; returns them. */
export async function waitForEvents(page: Page, predicate: (list: RecordedEvent[]) => boolean, timeoutMs = 60_000): Promise<RecordedEvent[]> {
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

/** The overlay's modal layer, in the given document. */
export function overlayDialog(where: Page | Frame): Locator {
  return where.getByRole('dialog', { name: 'Upload video' });
}

/** The upload page inside the overlay layer. */
export function overlayContent(where: Page | Frame): FrameLocator {
  return overlayDialog(where).locator('iframe').contentFrame();
}

/** The out-of-process frame that runs the upload page (for CDP throttling). */
export function uploadFrame(page: Page): Frame {
  const frame = page.frames().find((candidate) => new URL(candidate.url(), 'http://x.invalid').pathname === UPLOAD_PAGE_PATH);
  if (!frame) throw new Error(`no frame of ${UPLOAD_PAGE_PATH} in ${page.url()}`);
  return frame;
}

/** Every element and the head/body children of a document: the widget must leave these as they were. */
export function domCensus(where: Page | Frame): Promise<{ elements: number; body: number; head: number; bodyStyle: string; htmlStyle: string }> {
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
