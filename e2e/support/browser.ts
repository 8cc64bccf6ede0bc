import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser). Playwright normally
 * passes --disable-popup-blocking; we keep Chromium's real blocker so a popup opened without a
 * user gesture is refused exactly as in a user's browser. Headless Chromium's display is 800 × 600
 * unless told otherwise, and it pushes popups back inside it; a 1920 × 1080 display lets a popup
 * sit where the page asked. `extraArgs` adds flags for one test file (the fake camera of
 * e2e/record.test.ts, the tab capture of e2e/record.screen.test.ts), never for every test.
 */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
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
      ...extraArgs,
    ],
  });
}

/** Chromium's fake camera and microphone (a test pattern and a beep), allowed without asking: the recorder's tests and screenshot. */
export const FAKE_CAMERA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/**
 * Screen recording without the picker: getDisplayMedia shares the tab whose title is `title`, as a
 * person who picks that tab would. Never beside FAKE_CAMERA_ARGS: with the fake-UI flag Chromium
 * ignores this one and shares a fake screen instead.
 */
export function tabCaptureArgs(title: string): string[] {
  return [`--auto-select-tab-capture-source-by-title=${title}`];
}

/** English UI, a fixed viewport, so geometry and labels are predictable. */
export function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 800 } });
}

export interface Throttle {
  /** Lifts the limit. */
  lift(): Promise<void>;
  /** Cuts the network of this target: requests in flight fail and new ones cannot start. */
  cut(): Promise<void>;
}

/**
 * Slows the uploads one page or out-of-process frame sends (DevTools network emulation), so a
 * test can act while bytes are still on the wire. One CDP session holds the target's conditions:
 * a second session's conditions would not replace them.
 */
export async function throttleUploads(context: BrowserContext, target: Page | Frame, bytesPerSecond: number): Promise<Throttle> {
  const session = await context.newCDPSession(target);
  await session.send('Network.enable');
  const conditions = (offline: boolean, uploadThroughput: number) =>
    session.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput });
  await conditions(false, bytesPerSecond);
  return {
    async lift() {
      await conditions(false, -1);
      await session.detach().catch(() => undefined);
    },
    async cut() {
      await conditions(true, bytesPerSecond);
    },
  };
}
