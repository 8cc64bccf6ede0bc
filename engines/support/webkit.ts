import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Builder, By, Key, until as seleniumUntil, type WebDriver } from 'selenium-webdriver';
import { freePort } from '../../test/support/ports';
import { TIMEOUT_MS, until, type Engine } from './engine';

/** Debian's webkit2gtk-driver and the MiniBrowser of libwebkit2gtk-4.1-0; override with WEBKIT_DRIVER_PATH / MINIBROWSER_PATH. */
const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const by = (selector: string) => (selector.startsWith('//') ? By.xpath(selector) : By.css(selector));

/**
 * WebKitGTK's MiniBrowser over WebDriver classic (selenium-webdriver), on a virtual display:
 * the driver runs under `xvfb-run`, so the browser it starts draws there, not on a real screen.
 */
export async function launchWebKit(): Promise<Engine> {
  for (const path of [WEBKIT_DRIVER_PATH, MINIBROWSER_PATH]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: apt-get install webkit2gtk-driver xvfb`);
  }
  const port = await freePort();
  const driverProcess: ChildProcess = spawn('xvfb-run', ['-a', WEBKIT_DRIVER_PATH, `--port=${port}`, '--host=127.0.0.1'], {
    stdio: 'ignore',
    detached: true,
  });
  const server = `http://127.0.0.1:${port}`;
  await until('WebKitWebDriver', async () => ((await fetch(`${server}/status`)).ok ? true : undefined));
  const capabilities = { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] } };
  const driver: WebDriver = await new Builder().usingServer(server).withCapabilities(capabilities).build();
  await driver.manage().setTimeouts({ script: TIMEOUT_MS });
  let hostWindow: string | undefined;
  const find = (selector: string) => driver.wait(seleniumUntil.elementLocated(by(selector)), TIMEOUT_MS);

  return {
    name: 'WebKitGTK',
    async open(url) {
      // Only the hash would differ between two host pages: a plain get would not load the page again.
      await driver.get('about:blank');
      await driver.get(url);
      hostWindow = await driver.getWindowHandle();
    },
    async click(selector) {
      await (await find(selector)).click();
    },
    async press(key) {
      await driver
        .actions()
        .sendKeys(key === 'Enter' ? Key.ENTER : Key.ESCAPE)
        .perform();
    },
    async setFile(selector, path) {
      await (await find(selector)).sendKeys(path);
    },
    async waitForText(text, timeoutMs = TIMEOUT_MS) {
      await driver.wait(
        async () => ((await driver.executeScript('return document.body ? document.body.innerText : ""')) as string).includes(text),
        timeoutMs,
      );
    },
    async evaluate<T>(expression: string) {
      return (await driver.executeScript(`return (${expression});`)) as T;
    },
    async enterOverlay() {
      const layer = await find('open-upload-overlay');
      const frame = await until('the overlay iframe', async () => (await layer.getShadowRoot()).findElement(By.css('iframe')));
      await driver.switchTo().frame(frame);
    },
    async enterPopup() {
      const popup = await until('the popup', async () => (await driver.getAllWindowHandles()).find((handle) => handle !== hostWindow));
      await driver.switchTo().window(popup);
    },
    async leave() {
      await driver.switchTo().window(hostWindow!);
      await driver.switchTo().defaultContent();
    },
    async quit() {
      await driver.quit().catch(() => undefined);
      // xvfb-run leads a process group: its Xvfb and the driver go with it.
      if (driverProcess.pid) process.kill(-driverProcess.pid, 'SIGTERM');
    },
  };
}
