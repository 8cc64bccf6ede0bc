import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_PAGE_PATH } from '../src/shared/uploadPage';
import { AccessibleQuery, clickBox } from './support/a11y';
import { newContext } from './support/browser';
import {
  CLOSE_NAME,
  DIALOG_NAME,
  chooseFileButton,
  domCensus,
  events,
  openButton,
  openPopup,
  uploadFrame,
  waitForEvents,
  windowGeometry,
} from './support/widget';
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

const hostPage = (path: string, config: object, query = ''): Promise<Page> => world.openHostPage(context, path, config, query);

/** A host page framed by a same-origin parent page; the host page opens the overlay. */
/** Runs `use` with a page of a phone-sized context (375 × 667) as `context`, closed after. */
async function page375(use: (page: Page) => Promise<void>): Promise<void> {
  const wide = context;
  context = await world.browser.newContext({ locale: 'en-US', viewport: { width: 375, height: 667 } });
  try {
    await use(await context.newPage());
  } finally {
    await context.close();
    context = wide;
  }
}

async function framingPage(config: object): Promise<Page> {
  const inner = `/overlay.html#${encodeURIComponent(JSON.stringify(config))}`;
  const page = await context.newPage();
  await page.goto(`${world.host.origin}/framing.html?inner=${encodeURIComponent(inner)}`);
  return page;
}

function childFrame(page: Page): Frame {
  const child = page.frames().find((frame) => frame.parentFrame() === page.mainFrame());
  if (!child) throw new Error('the framing page has no child frame');
  return child;
}

async function openOverlay(page: Page): Promise<void> {
  await openButton(page).click();
  await chooseFileButton(await uploadFrame(page)).waitFor();
}

describe('popup form (initUploadWidget.js)', () => {
  it('opens a window roughly centred over the host window, showing the uploader from the service', async () => {
    const page = await hostPage('/popup.html', world.widgetAuth(await world.registerVideo()));
    const popup = await openPopup(page);
    const url = new URL(popup.url());
    expect(url.origin).toBe(world.service.address);
    expect(url.pathname).toBe(UPLOAD_PAGE_PATH);
    await chooseFileButton(popup).waitFor();

    const host = await windowGeometry(page);
    const win = await windowGeometry(popup);
    expect(win.width).toBeLessThan(host.width);
    expect(Math.abs(win.x + win.width / 2 - (host.x + host.width / 2))).toBeLessThanOrEqual(host.width * 0.1);
    expect(Math.abs(win.y + win.height / 2 - (host.y + host.height / 2))).toBeLessThanOrEqual(host.height * 0.1);
  });

  it('falls back to the overlay when Chromium blocks the popup (opened without a user gesture)', async () => {
    const popups: Page[] = [];
    context.on('page', (opened) => popups.push(opened));
    const page = await hostPage('/popup.html', world.widgetAuth(await world.registerVideo()), 'auto');
    await chooseFileButton(await uploadFrame(page)).waitFor();
    const ax = await AccessibleQuery.open(context, page);
    expect(await ax.count('dialog', DIALOG_NAME)).toBe(1);
    expect(popups.filter((opened) => opened !== page)).toHaveLength(0);
    expect(await events(page)).toEqual([]);
  });
});

describe('overlay form (initUploadABoxWidget.js)', () => {
  it('opens a modal layer centred in the viewport, showing the uploader', async () => {
    const page = await hostPage('/overlay.html', world.widgetAuth(await world.registerVideo()));
    await openOverlay(page);
    const ax = await AccessibleQuery.open(context, page);
    const box = await ax.box('dialog', DIALOG_NAME);
    expect(Math.abs(box.x + box.width / 2 - 600)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y + box.height / 2 - 400)).toBeLessThanOrEqual(1);
  });

  it('places the layer at `left` and `top` (px and %)', async () => {
    const page = await hostPage('/overlay.html', { ...world.widgetAuth(await world.registerVideo()), left: '120px', top: '10%' });
    await openOverlay(page);
    const ax = await AccessibleQuery.open(context, page);
    const box = await ax.box('dialog', DIALOG_NAME);
    expect(box.x).toBeCloseTo(120, 0);
    expect(box.y).toBeCloseTo(80, 0);
  });

  it('covers the whole screen on a phone (under 480 px wide), whatever `left` and `top` asked, with a 44 px close button', async () => {
    await page375(async (page) => {
      await page.goto(world.hostUrl('/overlay.html', { ...world.widgetAuth(await world.registerVideo()), left: '120px', top: '10%' }));
      await openOverlay(page);
      const ax = await AccessibleQuery.open(context, page);
      expect(await ax.box('dialog', DIALOG_NAME)).toEqual({ x: 0, y: 0, width: 375, height: 667 });
      // A touch target: 44 px each way (WCAG 2.5.5).
      const close = await ax.box('button', CLOSE_NAME);
      expect(Math.min(close.width, close.height)).toBeGreaterThanOrEqual(44);
    });
  });

  it('with isTop (default) opened inside a same-origin iframe, covers the top window', async () => {
    const page = await framingPage(world.widgetAuth(await world.registerVideo()));
    const child = childFrame(page);
    await openButton(child).click();
    await chooseFileButton(await uploadFrame(page)).waitFor();

    const top = await AccessibleQuery.open(context, page);
    const inner = await AccessibleQuery.open(context, page, child);
    expect(await top.count('dialog', DIALOG_NAME)).toBe(1);
    expect(await inner.count('dialog', DIALOG_NAME)).toBe(0);
    const box = await top.box('dialog', DIALOG_NAME);
    expect(Math.abs(box.x + box.width / 2 - 600)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y + box.height / 2 - 400)).toBeLessThanOrEqual(1);
  });

  it('with isTop false inside an iframe, stays within that frame', async () => {
    const page = await framingPage({ ...world.widgetAuth(await world.registerVideo()), isTop: false });
    const child = childFrame(page);
    await openButton(child).click();
    const frame = await uploadFrame(page);
    await chooseFileButton(frame).waitFor();

    const top = await AccessibleQuery.open(context, page);
    const inner = await AccessibleQuery.open(context, page, child);
    expect(await top.count('dialog', DIALOG_NAME)).toBe(0);
    expect(await inner.count('dialog', DIALOG_NAME)).toBe(1);
    // The framing page puts its iframe at (300, 200), 700 × 500.
    const box = (await (await frame.frameElement()).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(300);
    expect(box.y).toBeGreaterThanOrEqual(200);
    expect(box.x + box.width).toBeLessThanOrEqual(1000);
    expect(box.y + box.height).toBeLessThanOrEqual(700);
  });

  it('the close button removes every trace from the host page, gives focus back and reports onFailure once', async () => {
    const page = await hostPage('/overlay.html', world.widgetAuth(await world.registerVideo()));
    const before = await domCensus(page);
    await openButton(page).focus();
    await openOverlay(page);
    const ax = await AccessibleQuery.open(context, page);
    await clickBox(page, await ax.box('button', CLOSE_NAME));
    await ax.waitFor('dialog', DIALOG_NAME, false);

    expect(await domCensus(page)).toEqual(before);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Open upload');
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'failure', info: { reason: 'closed' } });
  });

  it('Escape pressed inside the uploader closes the layer and restores the page', async () => {
    const page = await hostPage('/overlay.html', world.widgetAuth(await world.registerVideo()));
    const before = await domCensus(page);
    await openButton(page).focus();
    await openOverlay(page);
    await chooseFileButton(await uploadFrame(page)).focus();
    // Key down only: it closes the layer, and a key-up sent to the focused iframe after that frame
    // is gone can leave Playwright's press() waiting for ever. The key goes up once it is closed.
    await page.keyboard.down('Escape');
    const ax = await AccessibleQuery.open(context, page);
    await ax.waitFor('dialog', DIALOG_NAME, false);
    await page.keyboard.up('Escape');

    expect(await domCensus(page)).toEqual(before);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Open upload');
    expect(await waitForEvents(page, (all) => all.length > 0)).toMatchObject([{ type: 'failure', info: { reason: 'closed' } }]);
  });

  it('Escape on the layer itself (focus on its close button) closes it too', async () => {
    const page = await hostPage('/overlay.html', world.widgetAuth(await world.registerVideo()));
    const before = await domCensus(page);
    await openOverlay(page);
    const ax = await AccessibleQuery.open(context, page);
    // Shift+Tab from the uploader's first control leaves the iframe backwards, onto the close button.
    await chooseFileButton(await uploadFrame(page)).focus();
    for (let i = 0; i < 10 && !(await ax.isFocused('button', CLOSE_NAME)); i++) await page.keyboard.press('Shift+Tab');
    expect(await ax.isFocused('button', CLOSE_NAME)).toBe(true);
    await page.keyboard.press('Escape');
    await ax.waitFor('dialog', DIALOG_NAME, false);
    expect(await domCensus(page)).toEqual(before);
  });

  it('keeps keyboard focus inside the layer while it is open', async () => {
    const page = await hostPage('/overlay.html', world.widgetAuth(await world.registerVideo()));
    await openOverlay(page);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const escaped = await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement));
      expect(escaped, `focus reached the host page after ${i + 1} Tab presses`).toBe(false);
    }
  });
});

describe('styles and language', () => {
  it("the host page's styles cannot reach the layer, and the layer's styles do not reach the page", async () => {
    const page = await hostPage('/overlay.html', world.widgetAuth(await world.registerVideo()));
    await page.addStyleTag({
      content:
        '* { opacity: .5 !important; border: 9px solid red !important } div, iframe, [role=dialog] { display: none !important; width: 1px !important }',
    });
    const styleOf = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.querySelector('button')!);
        return [style.color, style.fontSize, style.fontFamily, style.opacity, style.borderTopWidth, style.margin].join('|');
      });
    const before = await styleOf();
    await openOverlay(page);

    const ax = await AccessibleQuery.open(context, page);
    const box = await ax.box('dialog', DIALOG_NAME);
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(300);
    const frameBox = (await (await (await uploadFrame(page)).frameElement()).boundingBox())!;
    expect(frameBox.width).toBeGreaterThan(300);
    expect(await styleOf()).toBe(before);
  });

  it('`lang: "zh-CN"` shows the uploader in Simplified Chinese', async () => {
    const page = await hostPage('/overlay.html', { ...world.widgetAuth(await world.registerVideo()), lang: 'zh-CN' });
    await openButton(page).click();
    const frame = await uploadFrame(page);
    await frame.getByRole('button', { name: '选择视频文件' }).waitFor();
  });

  it('`lang: "zh-TW"` shows the uploader in Traditional Chinese', async () => {
    const page = await hostPage('/overlay.html', { ...world.widgetAuth(await world.registerVideo()), lang: 'zh-TW' });
    await openButton(page).click();
    await (await uploadFrame(page)).getByRole('button', { name: '選擇影片檔案' }).waitFor();
  });

  it.each([
    ['zh-CN', '选择视频文件', '上传视频', '关闭'],
    ['zh-TW', '選擇影片檔案', '上傳影片', '關閉'],
    ['zh-HK', '選擇影片檔案', '上傳影片', '關閉'],
  ])("without `lang`, a %s browser gets its Chinese, in the layer's own controls too", async (locale, choose, dialog, close) => {
    const browser = await world.browser.newContext({ locale, viewport: { width: 1200, height: 800 } });
    try {
      const page = await browser.newPage();
      await page.goto(world.hostUrl('/overlay.html', world.widgetAuth(await world.registerVideo())));
      await openButton(page).click();
      await (await uploadFrame(page)).getByRole('button', { name: choose }).waitFor();
      const ax = await AccessibleQuery.open(browser, page);
      expect(await ax.count('dialog', dialog)).toBe(1);
      expect(await ax.count('button', close)).toBe(1);
    } finally {
      await browser.close();
    }
  });
});

describe('npm module (dist/npm, ESM)', () => {
  it('opens the popup form', async () => {
    const page = await hostPage('/esm-popup.html', world.widgetAuth(await world.registerVideo()));
    const popup = await openPopup(page);
    expect(new URL(popup.url()).pathname).toBe(UPLOAD_PAGE_PATH);
    await chooseFileButton(popup).waitFor();
  });

  it('opens the overlay form', async () => {
    const page = await hostPage('/esm-overlay.html', world.widgetAuth(await world.registerVideo()));
    await openOverlay(page);
    const ax = await AccessibleQuery.open(context, page);
    expect(await ax.count('dialog', DIALOG_NAME)).toBe(1);
  });

  it("with config(), opens the popup in the click and goes on when the signed options arrive, after the click's activation has run out", async () => {
    // Chromium's popup blocker is on: a window.open 6 s after the click would be refused.
    const page = await hostPage('/esm-popup.html', { ...world.widgetAuth(await world.registerVideo()), deferMs: 6_000 });
    const popup = await openPopup(page);
    await popup.getByText('Preparing the upload…').waitFor();
    await popup.waitForURL((url) => url.pathname === UPLOAD_PAGE_PATH, { timeout: 20_000 });
    await chooseFileButton(popup).waitFor();
    expect(await page.evaluate(() => document.querySelector('open-upload-overlay'))).toBeNull();
  });

  it('with config(), shows the overlay at once and its uploader once the options arrive', async () => {
    const page = await hostPage('/esm-overlay.html', { ...world.widgetAuth(await world.registerVideo()), deferMs: 1_000 });
    await openButton(page).click();
    await chooseFileButton(await uploadFrame(page)).waitFor();
  });
});
