/**
 * Nothing fails silently: each way an open can fail reaches the host page as one `onFailure`
 * with a code (and `done` rejects), within 10 s, while the person sees our own error page with a
 * reference and a Close button, never the browser's. Real Chromium; every address is 127.0.0.1
 * or localhost (a service that does not answer is a closed loopback port).
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../test/support/ports';
import { newContext } from './support/browser';
import { errorLineOf, openButton, waitForEvents, waitForOutcome } from './support/widget';
import { startWorld, type World } from './support/world';

let world: World;
let context: BrowserContext;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.stop());
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

/** The first frame of `page` whose text holds an `ErrorCode` line. */
async function errorFrame(page: Page, timeoutMs = 20_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
      if (errorLineOf(text)) return frame;
    }
    if (Date.now() > deadline) throw new Error('no frame shows an error page');
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** Waits until `page`'s text holds an `ErrorCode` line, and returns the text. */
async function errorText(page: Page | Frame, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await page.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    if (errorLineOf(text)) return text;
    if (Date.now() > deadline) throw new Error(`no error page; the text is ${JSON.stringify(text)}`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/**
 * A host page on the host origin whose "Open upload" calls the npm module's `openUpload` with
 * `serviceUrl`, recording as the other host pages do.
 */
async function modulePage(serviceUrl: string, form: 'popup' | 'overlay', videoId: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${world.host.origin}/blank.html`);
  const config = { ...world.widgetAuth(videoId), serviceUrl, form };
  await page.addScriptTag({
    type: 'module',
    content: `
      import { openUpload } from '/npm/index.js';
      window.events = [];
      window.outcome = null;
      const button = document.createElement('button');
      button.textContent = 'Open upload';
      document.body.append(button);
      button.onclick = () => {
        const handle = openUpload({ ...${JSON.stringify(config)}, onFailure: (info) => window.events.push({ type: 'failure', info }) });
        handle.done.catch((error) => (window.outcome = { rejected: { name: error.name, kind: error.kind, code: error.code, message: error.message } }));
      };`,
  });
  return page;
}

describe('a serviceUrl that reaches nothing', () => {
  it('overlay: onFailure `unanswered` and done within 10 s, our error page with a reference and a Close button', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const page = await modulePage(dead, 'overlay', await world.registerVideo());
    const hints: string[] = [];
    page.on('console', (message) => message.type() === 'warning' && hints.push(message.text()));
    const clicked = Date.now();
    await openButton(page).click();
    const [failure] = await waitForEvents(page, (all) => all.length > 0, 15_000);
    expect(Date.now() - clicked).toBeLessThan(12_000);
    expect(failure!.info).toMatchObject({ reason: 'validation', code: 'unanswered', hint: expect.stringContaining('serviceUrl') });
    expect(await waitForOutcome(page)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: 'unanswered' }) });

    const frame = await errorFrame(page);
    const text = await errorText(frame);
    expect(errorLineOf(text)).toBe('ErrorCode : unanswered, ErrorMessage : No Answer: the upload page did not load within 10 s');
    expect(text).toMatch(/Reference: [0-9a-f]{32}/);
    // The hint is the developer's: in the console, never on the page.
    expect(text).not.toContain('serviceUrl');
    expect(hints.join('\n')).toContain('serviceUrl');
    await frame.getByRole('button', { name: 'Close' }).click();
    await page.locator('open-upload-overlay').waitFor({ state: 'detached' });
    expect(await waitForEvents(page, () => true)).toHaveLength(1);
  });

  it('popup: the window shows our error page, not the browser’s, and the host hears it once', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const page = await modulePage(dead, 'popup', await world.registerVideo());
    const [popup] = await Promise.all([page.waitForEvent('popup'), openButton(page).click()]);
    const [failure] = await waitForEvents(page, (all) => all.length > 0, 15_000);
    expect(failure!.info).toMatchObject({ reason: 'validation', code: 'unanswered' });
    expect(errorLineOf(await errorText(popup))).toBe(
      'ErrorCode : unanswered, ErrorMessage : No Answer: the upload page did not load within 10 s',
    );
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Close' }).click()]);
    expect(await waitForEvents(page, () => true)).toHaveLength(1);
  });
});

describe("a page outside the app's allowedOrigins", () => {
  it('hears 108 with the reference at once, not as a close, and the error page has a Close button', async () => {
    const videoId = await world.registerVideo();
    // The host server answers on 127.0.0.1 too: another origin than the localhost one the app lists.
    const refused = world.hostUrl('/overlay.html', world.widgetAuth(videoId)).replace('//localhost:', '//127.0.0.1:');
    const page = await context.newPage();
    await page.goto(refused);
    await openButton(page).click();
    const [failure] = await waitForEvents(page, (all) => all.length > 0, 10_000);
    expect(failure).toMatchObject({
      type: 'failure',
      info: { reason: 'validation', code: '108', message: 'No Permission', hint: expect.stringContaining('allowedOrigins') },
    });
    expect(await waitForOutcome(page)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: '108' }) });
    const frame = await errorFrame(page);
    const reference = /Reference: (\S+)/.exec(await errorText(frame))?.[1];
    expect((failure!.info as { requestId?: string }).requestId).toBe(reference);
    await frame.getByRole('button', { name: 'Close' }).click();
    await page.locator('open-upload-overlay').waitFor({ state: 'detached' });
    // One failure for the open: the close adds no `closed`.
    expect(await waitForEvents(page, () => true)).toHaveLength(1);
  });
});

describe('an async config() that rejects', () => {
  it('shows a styled waiting page, then our error page in the same layer, and reports code `config` at once', async () => {
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/esm-overlay.html', { ...world.widgetAuth(videoId), deferMs: 1500, configFails: true });
    await openButton(page).click();
    const waiting = page.frames().find((frame) => frame !== page.mainFrame())!;
    const status = waiting.getByRole('status');
    await status.waitFor();
    expect(await status.innerText()).toBe('Preparing the upload…');
    // Dressed as the error page: the uploader's font, not the browser's default serif.
    expect(await status.evaluate((node) => getComputedStyle(node).fontFamily)).toContain('system-ui');

    const [failure] = await waitForEvents(page, (all) => all.length > 0, 10_000);
    expect(failure!.info).toMatchObject({ reason: 'config', code: 'config', message: 'The upload could not be prepared.' });
    expect(await waitForOutcome(page)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: 'config' }) });
    const frame = await errorFrame(page);
    expect(errorLineOf(await errorText(frame))).toBe('ErrorCode : config, ErrorMessage : The upload could not be prepared.');
    await frame.getByRole('button', { name: 'Close' }).click();
    await page.locator('open-upload-overlay').waitFor({ state: 'detached' });
    expect(await waitForEvents(page, () => true)).toHaveLength(1);
  });
});
