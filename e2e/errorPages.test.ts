import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newContext } from './support/browser';
import { AccessibleQuery, clickClosingFrame } from './support/a11y';
import {
  chooseFileButton,
  DIALOG_NAME,
  errorLineOf,
  openButton,
  openPopup,
  recordServiceRequests,
  uploadFrame,
  waitForEvents,
  waitForFrame,
} from './support/widget';
import { APP_B, startWorld, type World } from './support/world';

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

const hostPage = (path: string, config: object): Promise<Page> => world.openHostPage(context, path, config);

/** The page's `ErrorCode : …` line, as a reader of its visible text sees it (one line of its own). */
async function pageText(where: Page | Frame): Promise<string | undefined> {
  await where.waitForLoadState('load');
  // The loader writes its own page once its parts (the page, its words) have come.
  await where
    .getByText(/^ErrorCode : /)
    .first()
    .waitFor();
  return errorLineOf(await where.locator('body').innerText());
}

async function popupText(config: object): Promise<string | undefined> {
  const popup = await openPopup(await hostPage('/popup.html', config));
  return pageText(popup);
}

describe('the service refuses the configuration with the ErrorCode page', () => {
  it('a wrong token: exactly "ErrorCode : 104, ErrorMessage : App SecretKey Error" (popup)', async () => {
    const auth = world.widgetAuth(await world.registerVideo());
    expect(await popupText({ ...auth, token: '0123456789abcdef0123456789abcdef' })).toBe(
      'ErrorCode : 104, ErrorMessage : App SecretKey Error',
    );
  });

  it('a wrong token in the overlay form shows the same text inside the layer', async () => {
    const auth = world.widgetAuth(await world.registerVideo());
    const page = await hostPage('/overlay.html', { ...auth, token: auth.token.replace(/^./, (c) => (c === '0' ? '1' : '0')) });
    await openButton(page).click();
    const frame = await uploadFrame(page);
    expect(await pageText(frame)).toBe('ErrorCode : 104, ErrorMessage : App SecretKey Error');
    // Around the line: a heading, what to do, and a Close that closes the layer.
    await frame.getByRole('heading', { level: 1, name: 'The upload cannot start' }).waitFor();
    await frame.getByText('The site owner should check its AppSecret and how it computes the Token.').waitFor();
    const reference = /Reference: (\S+)/.exec(await frame.locator('body').innerText())?.[1];
    expect(reference).toMatch(/^[\x21-\x7e]{8,}$/);
    await clickClosingFrame(page, frame.getByRole('button', { name: 'Close' }));
    const ax = await AccessibleQuery.open(context, page);
    await ax.waitFor('dialog', DIALOG_NAME, false);
    await ax.close();
    // onFailure fired once for this open, at the refusal: the close that followed adds nothing.
    const events = await waitForEvents(page, (all) => all.length > 0);
    expect(events).toHaveLength(1);
    const [failure] = events.map((event) => event.info);
    // What the user reads on the page, what the host page's onFailure gets and the service's log line all name one request.
    expect(failure).toEqual(expect.objectContaining({ reason: 'validation', code: '104', requestId: reference }));
    expect(world.logLines().filter((line) => line.requestId === reference)).not.toEqual([]);
  });

  it("speaks the uploader's language: zh-CN from the config", async () => {
    const auth = world.widgetAuth(await world.registerVideo());
    const popup = await openPopup(await hostPage('/popup.html', { ...auth, token: '0123456789abcdef0123456789abcdef', lang: 'zh-CN' }));
    expect(await pageText(popup)).toBe('ErrorCode : 104, ErrorMessage : App SecretKey Error');
    expect(await popup.locator('html').getAttribute('lang')).toBe('zh-CN');
    await popup.getByRole('heading', { level: 1, name: '无法开始上传' }).waitFor();
  });

  it('a timestamp older than 600 seconds (correctly signed) is refused with code 103', async () => {
    const videoId = await world.registerVideo();
    const stale = world.widgetAuth(videoId, undefined, Date.now() - 700_000);
    // The table's message; the service may add what exactly was wrong after a colon.
    expect(await popupText(stale)).toMatch(/^ErrorCode : 103, ErrorMessage : Timestamp Expired(: .+)?$/);
  });

  it('an unknown video is refused with code 105', async () => {
    const auth = world.widgetAuth('9b2f3c44-0000-4000-8000-000000000000');
    expect(await popupText(auth)).toBe('ErrorCode : 105, ErrorMessage : Video Not Exist');
  });

  it("another app's video is refused and no uploader is shown", async () => {
    const videoOfA = await world.registerVideo();
    const popup = await openPopup(await hostPage('/popup.html', world.widgetAuth(videoOfA, APP_B)));
    expect(await pageText(popup)).toMatch(/^ErrorCode : \d+, ErrorMessage : \S.*$/);
    expect(await chooseFileButton(popup).count()).toBe(0);
  });

  it('echoed values are shown as text, never as markup', async () => {
    const auth = world.widgetAuth('<b id="injected">x</b><script>window.ran=1</script>');
    const popup = await openPopup(await hostPage('/popup.html', auth));
    expect(await pageText(popup)).toMatch(/^ErrorCode : \d+, ErrorMessage : /);
    expect(await popup.locator('#injected').count()).toBe(0);
    expect(await popup.evaluate(() => (window as unknown as { ran?: number }).ran)).toBeUndefined();
  });
});

/** What the loader may fetch without asking the service anything: its own parts (the error page, the overlay's layer, its words in one language). */
const onlyExtras = (urls: string[]) => urls.filter((url) => !/\/Scripts\/UploadWidget\/(errorPage|overlay|texts-[\w-]+)\.js$/.test(url));

describe('the loader refuses a configuration it can check itself, without asking the service', () => {
  it("a missing videoId shows the ErrorCode page and sends nothing to the service but a fetch of the loader's error page part", async () => {
    const { videoId: _omitted, ...withoutVideo } = world.widgetAuth(await world.registerVideo());
    const page = await hostPage('/popup.html', withoutVideo);
    const requests = recordServiceRequests(context, world.service.address);
    const popup = await openPopup(page);
    expect(await pageText(popup)).toBe('ErrorCode : 101, ErrorMessage : Missing Parameter: videoId');
    requests.stop();
    expect(onlyExtras(requests.urls)).toEqual([]);
  });

  it('a token of the wrong type in the overlay form: error page, no request', async () => {
    const auth = world.widgetAuth(await world.registerVideo());
    const page = await hostPage('/overlay.html', { ...auth, token: 12345 });
    const requests = recordServiceRequests(context, world.service.address);
    await openButton(page).click();
    const frame = await waitForFrame(page, (candidate) => candidate.parentFrame() === page.mainFrame(), 'the error page');
    expect(await pageText(frame)).toMatch(/^ErrorCode : 106, ErrorMessage : Invalid Parameter: token must be a string/);
    requests.stop();
    expect(onlyExtras(requests.urls)).toEqual([]);
  });
});
