/**
 * Texts and languages in the browser: the overlay loader opens the uploader in Arabic
 * with texts of the host's own. The layer takes its label from the `texts-ar` part and puts its ×
 * at the top left; the upload page is right to left and shows the host's text; a bad `strings`
 * ends on the service's 106 page and in `onFailure`.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessibleQuery } from './support/a11y';
import { newContext } from './support/browser';
import { errorLineOf, openButton, uploadFrame, waitForEvents } from './support/widget';
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

/** The overlay host page, its "Open upload" clicked. */
async function overlayPage(config: object): Promise<Page> {
  const page = await world.openHostPage(context, '/overlay.html', config);
  await openButton(page).click();
  return page;
}

describe("the overlay in Arabic with the host's texts", () => {
  it("is right to left, shows the host's label as text, and its × sits at the top left", async () => {
    const strings = { choose: 'اختر <b>مقطعك</b>', dialog: 'ارفع مقطعك إلى المتجر' };
    const page = await overlayPage({ ...world.widgetAuth(await world.registerVideo()), lang: 'ar', strings });
    const frame = await uploadFrame(page);
    await frame.getByRole('button', { name: 'اختر <b>مقطعك</b>' }).waitFor();
    expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir, document.querySelector('b')])).toEqual([
      'ar',
      'rtl',
      null,
    ]);
    // Texts the host left alone come from the language's own table.
    await frame.getByText('أو أفلته هنا').waitFor();

    const ax = await AccessibleQuery.open(context, page);
    const dialog = await ax.box('dialog', 'ارفع مقطعك إلى المتجر');
    const close = await ax.box('button', 'إغلاق');
    expect(close.x - dialog.x, 'the × at the left edge').toBeLessThan(5);
    expect(close.y - dialog.y, 'the × at the top').toBeLessThan(5);
  });

  it("ends a bad `strings` on the service's error page and in onFailure, naming the key", async () => {
    const page = await overlayPage({ ...world.widgetAuth(await world.registerVideo()), lang: 'ar', strings: { chose: 'اختر' } });
    const frame = await uploadFrame(page);
    await frame.getByRole('heading', { level: 1 }).waitFor();
    const expected = 'ErrorCode : 106, ErrorMessage : Invalid Parameter: strings.chose is not a text key (docs/widget.md lists them)';
    expect(errorLineOf(await frame.locator('body').innerText())).toBe(expected);
    expect(await frame.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const [failure] = await waitForEvents(page, (list) => list.some((event) => event.type === 'failure'));
    expect(failure).toMatchObject({ type: 'failure', info: { reason: 'validation', code: '106' } });
  });
});
