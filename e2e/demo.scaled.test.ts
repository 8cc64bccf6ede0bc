import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoApp, type RunningDemo } from '../demo/app';
import { startTestService, type TestService } from '../test/support/service';
import { launchBrowser, newContext } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { chooseFile, uploadFrame } from './support/widget';
import { assertBuilt } from './support/world';

const APP_ID = 'demo-app';
const SECRET = 'demo-secret-that-must-stay-on-the-backend-7f3a';

let demo: RunningDemo;
let service: TestService;
let browser: Browser;
let context: BrowserContext;
let clip: string;
/** Every body the browser received and every URL it requested, to look for the secret. */
let seen: string[];
let bodies: Promise<void>[];

beforeAll(async () => {
  assertBuilt();
  // The demo listens first: the service's app record names its origin and callback address.
  demo = await startDemoApp({ appId: APP_ID, appSecret: SECRET, serviceUrl: '', port: 0 });
  service = await startTestService({
    apps: [{ appId: APP_ID, appSecret: SECRET, callbackUrl: demo.callbackUrl, allowedOrigins: [demo.origin] }],
  });
  demo.serviceUrl = service.address;
  browser = await launchBrowser();
  clip = await makeVideo({ seconds: 3, bitrate: 1_000_000, width: 320, height: 240 }, 'demo.mp4');
});
afterAll(async () => {
  await browser?.close();
  await service?.stop(true);
  await demo?.close();
  removeVideo(clip);
});
beforeEach(async () => {
  context = await newContext(browser);
  seen = [];
  context.on('request', (request) => seen.push(request.url(), request.postData() ?? ''));
  bodies = [];
  context.on('response', (response) => {
    bodies.push(
      response.text().then(
        (text) => void seen.push(text),
        () => undefined,
      ),
    );
  });
});
afterEach(() => context?.close());

async function registered(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(demo.origin);
  await page.getByRole('button', { name: 'Register a video' }).click();
  await page.getByRole('button', { name: 'Upload in an overlay' }).and(page.locator(':enabled')).waitFor();
  return page;
}

function eventLog(page: Page) {
  return page.getByRole('list', { name: 'Widget events' }).getByRole('listitem');
}

describe('the demo app', () => {
  it('registers a video, uploads it in the overlay, logs onSuccess, and shows the verified status callback', async () => {
    const page = await registered();
    const videoId = (await page.locator('#video-id').innerText()).trim();
    expect(videoId).toMatch(/^[0-9a-f-]{36}$/);

    await page.getByRole('button', { name: 'Upload in an overlay' }).click();
    await chooseFile(await uploadFrame(page), clip);
    await eventLog(page).filter({ hasText: 'onSuccess' }).waitFor({ timeout: 60_000 });
    expect(await eventLog(page).filter({ hasText: 'onSuccess' }).innerText()).toContain(videoId);

    const row = page.getByRole('row').filter({ hasText: videoId });
    await row.getByRole('cell', { name: '1', exact: true }).waitFor({ timeout: 100_000 });
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(1)).toEqual([videoId, '1', 'valid']);
  });

  it('opens the popup form from its button', async () => {
    const page = await registered();
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Upload in a popup' }).click()]);
    await popup.getByRole('button', { name: /choose/i }).waitFor();
    await popup.close();
    await eventLog(page).filter({ hasText: 'onFailure' }).waitFor();
  });

  it('never lets the AppSecret reach the browser', async () => {
    const page = await registered();
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Upload in a popup' }).click()]);
    await popup.getByRole('button', { name: /choose/i }).waitFor();
    await page.getByRole('button', { name: 'Check status' }).click();
    await page.getByLabel('Video details').filter({ hasText: 'AuthMsg' }).waitFor();
    await page.reload();
    await page.waitForLoadState('networkidle');
    await Promise.all(bodies);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.filter((text) => text.includes(SECRET))).toEqual([]);
  });

  it('refuses a callback that is not signed with its secret', async () => {
    const body = new URLSearchParams({
      VideoId: 'x',
      VideoStatus: '1',
      AppId: APP_ID,
      Timestamp: String(Math.floor(Date.now() / 1000)),
      Token: '0'.repeat(32),
    });
    const res = await fetch(demo.callbackUrl, { method: 'POST', body, headers: { 'x-signature': 'sha256=' + '0'.repeat(64) } });
    expect(res.status).toBe(401);
  });
});
