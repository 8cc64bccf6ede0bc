import axe from 'axe-core';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { throttleUploads } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { chooseFile, openPopup, waitForEvents, waitForProgress } from './support/widget';
import { startWorld, type World } from './support/world';

/** axe-core's browser build, run inside each page as assistive-technology audits do. */
const AXE_SOURCE = axe.source;

interface Violation {
  id: string;
  help: string;
  targets: string[];
}

/**
 * Every axe violation of the document (WCAG 2 A/AA and best practices). Evaluated through DevTools,
 * which the page's CSP (script-src 'self') does not govern.
 */
async function violations(where: Page | Frame): Promise<Violation[]> {
  await where.waitForLoadState('load');
  await where.evaluate(AXE_SOURCE);
  return where.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Document, options: object): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}

let world: World;
let video: string;

beforeAll(async () => {
  world = await startWorld();
  video = await makeVideo({ seconds: 6, bitrate: 8_000_000 }, 'axe clip.mp4');
});
afterAll(async () => {
  await world?.stop();
  removeVideo(video);
});

describe.each(['light', 'dark'] as const)('axe finds no violation (%s)', (colorScheme) => {
  let context: BrowserContext;
  const open = async (browser: Browser) => {
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 800 }, colorScheme });
    return context;
  };
  afterEach(() => context?.close());

  it('in the uploader: idle, uploading, paused, done', async () => {
    await open(world.browser);
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    await popup.getByRole('button', { name: 'Choose a video file' }).waitFor();
    expect(await popup.evaluate(() => document.documentElement.dataset.theme), "the system's scheme").toBe(colorScheme);
    expect(await violations(popup), 'idle').toEqual([]);

    const throttle = await throttleUploads(context, popup, 512 * 1024);
    await chooseFile(popup, video);
    await waitForProgress(popup, 5);
    expect(await violations(popup), 'uploading').toEqual([]);

    await popup.getByRole('button', { name: 'Pause' }).click();
    await popup.getByRole('button', { name: 'Resume' }).waitFor();
    expect(await violations(popup), 'paused').toEqual([]);

    await throttle.lift();
    await popup.getByRole('button', { name: 'Resume' }).click();
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await popup.getByRole('button', { name: 'Close' }).waitFor();
    expect(await violations(popup), 'done').toEqual([]);
  });

  it("on the service's error page and on the loader's", async () => {
    await open(world.browser);
    const auth = world.widgetAuth(await world.registerVideo());
    const service = await openPopup(
      await world.openHostPage(context, '/popup.html', { ...auth, token: '0123456789abcdef0123456789abcdef' }),
    );
    await service.getByRole('heading', { level: 1 }).waitFor();
    expect(await service.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
    expect(await violations(service), "the service's page").toEqual([]);

    const { videoId: _omitted, ...withoutVideo } = auth;
    const loader = await openPopup(await world.openHostPage(context, '/popup.html', withoutVideo));
    await loader.getByRole('heading', { level: 1 }).waitFor();
    expect(await violations(loader), "the loader's page").toEqual([]);
  });
});

describe('axe finds no violation in Arabic, right to left', () => {
  let context: BrowserContext | undefined;
  afterEach(() => context?.close());

  it("in the uploader with a text of the host's, idle and uploading, and on both error pages", async () => {
    context = await world.browser.newContext({ locale: 'ar-EG', viewport: { width: 1200, height: 800 } });
    const auth = world.widgetAuth(await world.registerVideo());
    const page = await world.openHostPage(context, '/popup.html', { ...auth, lang: 'ar', strings: { choose: 'اختر مقطعك' } });
    const popup = await openPopup(page);
    await popup.getByRole('button', { name: 'اختر مقطعك' }).waitFor();
    expect(await popup.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await violations(popup), 'idle').toEqual([]);
    const throttle = await throttleUploads(context, popup, 512 * 1024);
    const [chooser] = await Promise.all([popup.waitForEvent('filechooser'), popup.getByRole('button', { name: 'اختر مقطعك' }).click()]);
    await chooser.setFiles(video);
    const bar = popup.getByRole('progressbar', { name: 'تقدّم الرفع' });
    await expect
      .poll(async () => Number((await bar.count()) && (await bar.getAttribute('aria-valuenow'))), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(5);
    expect(await violations(popup), 'uploading').toEqual([]);
    await throttle.lift();

    // Without `lang`, the browser's language (ar-EG) picks Arabic.
    const service = await openPopup(
      await world.openHostPage(context, '/popup.html', { ...auth, token: '0123456789abcdef0123456789abcdef' }),
    );
    await service.getByRole('heading', { level: 1, name: 'تعذّر بدء الرفع' }).waitFor();
    expect(await service.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await violations(service), "the service's page").toEqual([]);

    const { videoId: _omitted, ...withoutVideo } = auth;
    const loader = await openPopup(await world.openHostPage(context, '/popup.html', { ...withoutVideo, lang: 'ar' }));
    await loader.getByRole('heading', { level: 1, name: 'تعذّر بدء الرفع' }).waitFor();
    expect(await loader.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await violations(loader), "the loader's page").toEqual([]);
  });
});

describe("the host's look", () => {
  let context: BrowserContext | undefined;
  afterEach(() => context?.close());

  it('theme "dark" in a light system, with an accent colour and radius: applied, and still no violation', async () => {
    context = await world.browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 800 }, colorScheme: 'light' });
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/popup.html', {
      ...world.widgetAuth(videoId),
      theme: 'dark',
      accentColor: '#fde047',
      radius: '2px',
    });
    const popup = await openPopup(page);
    const choose = popup.getByRole('button', { name: 'Choose a video file' });
    await choose.waitFor();
    const look = await choose.evaluate((button) => {
      const style = getComputedStyle(button);
      return {
        page: getComputedStyle(document.body).backgroundColor,
        button: style.backgroundColor,
        text: style.color,
        radius: style.borderTopLeftRadius,
      };
    });
    // #0f172a page, #fde047 button with dark text on it (a light accent), 2px corners.
    expect(look).toEqual({ page: 'rgb(15, 23, 42)', button: 'rgb(253, 224, 71)', text: 'rgb(15, 23, 42)', radius: '2px' });
    expect(await violations(popup)).toEqual([]);
  });
});
