import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser). Playwright normally
 * passes --disable-popup-blocking; we keep Chromium's real blocker so a popup opened without a
 * user gesture is refused exactly as in a user's browser. Headless Chromium's display is 800 × 600
 * unless told otherwise, and it pushes popups back inside it; a 1920 × 1080 display lets a popup
 * sit where the page asked.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    ignoreDefaultArgs: ['--disable-popup-blocking'],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--screen-info={1920x1080}',
    ],
  });
}

/** English UI, a fixed viewport, so geometry and labels are predictable. */
export function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 800 } });
}

/**
 * Slows the uploads one page or out-of-process frame sends (DevTools network emulation), so a
 * test can act while bytes are still on the wire. Returns a function that lifts the limit.
 */
export async function throttleUploads(
  context: BrowserContext,
  target: Page | Frame,
  bytesPerSecond: number,
): Promise<() => Promise<void>> {
  const session = await context.newCDPSession(target);
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return async () => {
    await session.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await session.detach().catch(() => undefined);
  };
}
