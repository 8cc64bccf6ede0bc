import puppeteer, { type Browser, type ElementHandle, type Frame, type Page } from 'puppeteer-core';
import { TIMEOUT_MS, until, type Engine } from './engine';

/** Debian's Firefox ESR; override with FIREFOX_PATH. */
const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * The oldest Firefox whose WebDriver BiDi has what puppeteer-core uses here: an iframe's
 * element by its browsing context, and scripts that a page's CSP does not block. Debian's
 * release build of ESR 140 has neither; its security update has both. `.ci/run` reads this
 * number to upgrade an older `firefox-esr`.
 */
const FIREFOX_MIN_MAJOR = 153;

/** Fails at once, naming the fix, instead of five tests failing on protocol errors. */
async function assertRecentEnough(browser: Browser): Promise<void> {
  const version = await browser.version();
  const major = Number(/(\d+)\./.exec(version)?.[1]);
  if (!(major >= FIREFOX_MIN_MAJOR)) {
    await browser.close();
    throw new Error(
      `${FIREFOX_PATH} is ${version}; the engines tier needs Firefox ESR ${FIREFOX_MIN_MAJOR} or newer ` +
        '(apt-get update && apt-get install --only-upgrade firefox-esr)',
    );
  }
}

const query = (selector: string) => (selector.startsWith('//') ? `::-p-xpath(${selector})` : selector);

/** Firefox ESR over WebDriver BiDi, through puppeteer-core (it never downloads a browser). */
export async function launchFirefox(): Promise<Engine> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    protocol: 'webDriverBiDi',
  });
  await assertRecentEnough(browser);
  let host: Page | undefined;
  let current: Page | Frame | undefined;
  const here = () =>
    current ??
    (() => {
      throw new Error('no page is open');
    })();
  const pageOf = (where: Page | Frame): Page =>
    'page' in where && typeof where.page === 'function' ? (where as Frame).page() : (where as Page);
  const find = async (selector: string) => (await here().waitForSelector(query(selector), { timeout: TIMEOUT_MS }))!;

  return {
    name: 'Firefox ESR',
    async open(url) {
      await host?.close();
      host = await browser.newPage();
      await host.goto(url);
      current = host;
    },
    async click(selector) {
      await (await find(selector)).click();
    },
    async press(key) {
      await pageOf(here()).keyboard.press(key);
    },
    async setFile(selector, path) {
      await ((await find(selector)) as ElementHandle<HTMLInputElement>).uploadFile(path);
    },
    async waitForText(text, timeoutMs = TIMEOUT_MS) {
      await here().waitForFunction(
        (wanted: string) => document.body?.innerText.includes(wanted),
        { timeout: timeoutMs, polling: 100 },
        text,
      );
    },
    async evaluate<T>(expression: string) {
      return (await here().evaluate(expression)) as T;
    },
    async enterOverlay() {
      const frame = await (await host!.waitForSelector('open-upload-overlay >>> iframe', { timeout: TIMEOUT_MS }))!.contentFrame();
      current = frame;
    },
    async enterPopup() {
      current = await until('the popup', async () =>
        (await browser.pages()).find((page) => page !== host && page.url().includes('/UploadWidget/')),
      );
    },
    async leave() {
      current = host;
    },
    async quit() {
      await browser.close();
    },
  };
}
