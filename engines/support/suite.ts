import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyProxy, type FaultyProxy } from '../../fault/support/faultyProxy';
import { fileSize, makeVideo, removeVideo, sha256File } from '../../e2e/support/media';
import { startServiceWorld, type ServiceWorld } from '../../e2e/support/world';
import { until, type Engine } from './engine';

const OPEN = '#open';
const FILE_INPUT = 'input[type=file]';
const PAUSE = "//button[normalize-space()='Pause']";
const RESUME = "//button[normalize-space()='Resume']";

interface Outcome {
  resolved?: { videoId: string; fileName: string };
  rejected?: { kind: string; code?: string };
}

/**
 * What the widget must do alike in every engine: both forms upload, pause and resume, the error
 * page, and the keyboard path. The same host pages and service as the Chromium e2e tier.
 */
export function engineSuite(launch: () => Promise<Engine>): void {
  let world: ServiceWorld;
  let engine: Engine;
  let small: string;
  let medium: string;

  beforeAll(async () => {
    [world, engine, small, medium] = await Promise.all([
      startServiceWorld(),
      launch(),
      makeVideo({ seconds: 2, bitrate: 400_000 }, 'small.mp4'),
      makeVideo({ seconds: 6, bitrate: 6_000_000 }, 'medium.mp4'),
    ]);
  });
  afterAll(async () => {
    await engine?.quit();
    await world?.stop();
    removeVideo(small);
    removeVideo(medium);
  });

  const outcome = () => until('done settled', () => engine.evaluate<Outcome | null>('window.outcome').then((value) => value ?? undefined));

  async function openHost(path: string, config: object): Promise<void> {
    await engine.open(world.hostUrl(path, config));
    await engine.click(OPEN);
  }

  describe('the overlay', () => {
    it('uploads a file, and done resolves with it', async () => {
      const videoId = await world.registerVideo();
      await openHost('/overlay.html', world.widgetAuth(videoId));
      await engine.enterOverlay();
      await engine.setFile(FILE_INPUT, small);
      await engine.waitForText('“small.mp4” was uploaded.');
      await engine.leave();
      expect(await outcome()).toEqual({ resolved: expect.objectContaining({ videoId, fileName: 'small.mp4' }) });
      expect(await world.sourceSha256(videoId)).toBe(await sha256File(small));
    });

    it('shows the error page for a wrong token, and reports 104', async () => {
      const auth = world.widgetAuth(await world.registerVideo());
      await openHost('/overlay.html', { ...auth, token: '0123456789abcdef0123456789abcdef' });
      await engine.enterOverlay();
      await engine.waitForText('ErrorCode : 104, ErrorMessage : App SecretKey Error');
      await engine.leave();
      expect(await outcome()).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: '104' }) });
    });

    it('opens with Enter on the button, closes with Escape, and gives focus back', async () => {
      const videoId = await world.registerVideo();
      await engine.open(world.hostUrl('/overlay.html', world.widgetAuth(videoId)));
      await engine.evaluate('document.getElementById("open").focus()');
      await engine.press('Enter');
      await engine.enterOverlay();
      await engine.waitForText('Choose a video file');
      await engine.press('Escape');
      await engine.leave();
      expect(await outcome()).toEqual({ rejected: expect.objectContaining({ kind: 'closed' }) });
      expect(await engine.evaluate('document.querySelector("open-upload-overlay") === null && document.activeElement.id')).toBe('open');
    });
  });

  describe('the popup', () => {
    it('uploads a file, and done resolves with it', async () => {
      const videoId = await world.registerVideo();
      await openHost('/popup.html', world.widgetAuth(videoId));
      await engine.enterPopup();
      await engine.setFile(FILE_INPUT, small);
      await engine.waitForText('“small.mp4” was uploaded.');
      await engine.leave();
      expect(await outcome()).toEqual({ resolved: expect.objectContaining({ videoId, fileName: 'small.mp4' }) });
    });
  });

  describe('pause and resume', () => {
    let proxy: FaultyProxy;
    beforeAll(async () => {
      // Loopback is too fast to press Pause mid-upload: the pages and the upload go through a slow proxy,
      // slow enough that a driver as slow as WebKitWebDriver clicks Pause while the file is still sending.
      proxy = await startFaultyProxy(Number(new URL(world.service.address).port));
      proxy.fault = { bytesPerSecond: 750_000 };
      world.host.serviceUrl = proxy.origin;
    });
    afterAll(async () => {
      world.host.serviceUrl = world.service.address;
      await proxy?.close();
    });

    it('stops sending while paused, and the resumed upload stores the file byte for byte', async () => {
      const videoId = await world.registerVideo();
      await openHost('/overlay.html', world.widgetAuth(videoId));
      await engine.enterOverlay();
      await engine.setFile(FILE_INPUT, medium);
      await engine.click(PAUSE);
      await engine.waitForText('Paused: “medium.mp4”');
      // A slow driver may press Pause before the upload was even created: then nothing is stored (0).
      const stored = await until('the paused upload stored', async () => (await world.storedUploadBytes(videoId)) ?? 0);
      expect(stored).toBeLessThan(fileSize(medium));
      proxy.fault = {};
      await engine.click(RESUME);
      await engine.waitForText('“medium.mp4” was uploaded.', 60_000);
      await engine.leave();
      expect(await world.sourceSha256(videoId)).toBe(await sha256File(medium));
    });
  });
}
