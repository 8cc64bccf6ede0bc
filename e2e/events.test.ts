import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessibleQuery, clickBox } from './support/a11y';
import { newContext, throttleUploads } from './support/browser';
import { fileSize, makeVideo, sha256File, removeVideo } from './support/media';
import {
  CLOSE_NAME,
  DIALOG_NAME,
  chooseFile,
  openButton,
  openPopup,
  recordTusRequests,
  uploadFrame,
  waitForEvents,
  waitForOutcome,
  waitForProgress,
  waitForUpdates,
  type RecordedEvent,
  type RecordedUpdate,
} from './support/widget';
import { startWorld, type World } from './support/world';

/** A small flash limit, so "too large" needs only a small file; silverlight keeps its 6 GiB default. */
const FLASH_LIMIT = 1_500_000;

let world: World;
let context: BrowserContext;
let smallVideo: string;
let overLimitVideo: string;

beforeAll(async () => {
  world = await startWorld({ env: { MAX_UPLOAD_BYTES_FLASH: String(FLASH_LIMIT) } });
  smallVideo = await makeVideo({ seconds: 2, bitrate: 2_000_000 }, 'small.mp4');
  overLimitVideo = await makeVideo({ seconds: 4, bitrate: 4_000_000 }, 'over-limit.mp4');
});
afterAll(async () => {
  await world?.stop();
  removeVideo(smallVideo);
  removeVideo(overLimitVideo);
});
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

const hostPage = (path: string, config: object): Promise<Page> => world.openHostPage(context, path, config);

async function openOverlay(page: Page): Promise<Frame> {
  await openButton(page).click();
  return uploadFrame(page);
}

async function closeOverlay(page: Page): Promise<void> {
  const ax = await AccessibleQuery.open(context, page);
  await clickBox(page, await ax.box('button', CLOSE_NAME));
  await ax.waitFor('dialog', DIALOG_NAME, false);
  await ax.close();
}

const only = (type: RecordedEvent['type']) => (list: RecordedEvent[]) => list.filter((event) => event.type === type);

describe('onSuccess', () => {
  it('fires once, with videoId, file name and size, when the service has stored the whole file', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    await chooseFile(popup, smallVideo);
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toEqual([{ type: 'success', info: { videoId, fileName: 'small.mp4', fileSize: fileSize(smallVideo) } }]);
    // The callback fired only after the last byte was stored.
    expect(await world.sourceSha256(videoId)).toBe(await sha256File(smallVideo));
  });
});

describe('onFailure', () => {
  it('fires once with reason "closed" when the user closes the popup without uploading', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    await popup.getByRole('button', { name: /choose/i }).waitFor();
    await popup.close();
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'failure', info: { videoId, reason: 'closed' } });
    expect((await world.video(videoId))?.status).toBe(8);
  });

  it('fires with reason "rejected" for an empty file, and nothing is sent', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const frame = await openOverlay(page);
    const tus = recordTusRequests(context, world.service.address);
    await chooseFile(frame, { name: 'empty.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(0) });
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'failure', info: { videoId, reason: 'rejected', fileName: 'empty.mp4', fileSize: 0 } });
    expect(await frame.getByRole('alert').innerText()).toContain('empty.mp4');
    expect(tus.list).toEqual([]);
  });

  it('fires with reason "rejected" for a file that is not a video, and nothing is sent', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const frame = await openOverlay(page);
    const tus = recordTusRequests(context, world.service.address);
    await chooseFile(frame, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a video\n') });
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list[0]).toMatchObject({ type: 'failure', info: { videoId, reason: 'rejected', fileName: 'notes.txt' } });
    expect(tus.list).toEqual([]);
  });

  it('fires with reason "rejected" for a text file renamed to .mp4 and typed video/mp4, and nothing is sent', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const frame = await openOverlay(page);
    const tus = recordTusRequests(context, world.service.address);
    await chooseFile(frame, { name: 'fake.mp4', mimeType: 'video/mp4', buffer: Buffer.from('meeting notes, not a video\n'.repeat(100)) });
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'failure', info: { videoId, reason: 'rejected', fileName: 'fake.mp4' } });
    expect(await frame.getByRole('alert').innerText()).toContain('does not contain a video');
    expect(tus.list).toEqual([]);
    expect((await world.video(videoId))?.status).toBe(8);
  });

  it('fires with reason "rejected" for a file over the flash limit; the same file passes with uploadType silverlight', async () => {
    expect(fileSize(overLimitVideo)).toBeGreaterThan(FLASH_LIMIT);
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const frame = await openOverlay(page);
    const tus = recordTusRequests(context, world.service.address);
    await chooseFile(frame, overLimitVideo);
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list[0]).toMatchObject({ type: 'failure', info: { videoId, reason: 'rejected', fileName: 'over-limit.mp4' } });
    expect(tus.list).toEqual([]);

    const silverlight = await hostPage('/overlay.html', { ...world.widgetAuth(videoId), uploadType: 'silverlight' });
    await chooseFile(await openOverlay(silverlight), overLimitVideo);
    await waitForEvents(silverlight, (all) => all.some((event) => event.type === 'success'));
    expect(await world.sourceSha256(videoId)).toBe(await sha256File(overLimitVideo));
  });

  it('fires with reason "server", the code and the refused tus request\'s X-Request-Id when the service refuses the upload', async () => {
    const videoId = await world.registerVideo();
    // Opened while the video still waits for its file; another page then uploads it.
    const late = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const lateFrame = await openOverlay(late);
    const first = await hostPage('/overlay.html', world.widgetAuth(videoId));
    await chooseFile(await openOverlay(first), smallVideo);
    await waitForEvents(first, (all) => all.some((event) => event.type === 'success'));

    const refusal = context.waitForEvent(
      'response',
      (res) => res.url().startsWith(`${world.service.address}/UploadWidget/files`) && res.request().method() === 'POST',
    );
    await chooseFile(lateFrame, smallVideo);
    const reply = await refusal;
    expect(reply.status()).toBe(409);
    const requestId = await reply.headerValue('x-request-id');
    expect(requestId).toMatch(/^\S+$/);
    const list = await waitForEvents(late, (all) => all.length > 0);
    expect(list).toEqual([
      {
        type: 'failure',
        info: {
          videoId,
          reason: 'server',
          code: '107',
          message: expect.any(String),
          fileName: 'small.mp4',
          fileSize: fileSize(smallVideo),
          requestId,
        },
      },
    ]);
  });

  it('the service itself enforces the limit: a forged tus creation over the limit is refused', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const frame = await openOverlay(page);
    // Script in the upload page (as a tampered uploader would) asks for more than the limit.
    const status = await frame.evaluate(async (length) => {
      const boot = JSON.parse(document.getElementById('upload-boot')!.textContent!) as { tusEndpoint: string; ticket: string };
      const res = await fetch(boot.tusEndpoint, {
        method: 'POST',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(length), 'Upload-Ticket': boot.ticket },
      });
      return res.status;
    }, FLASH_LIMIT + 1);
    expect(status).toBe(413);
    expect(await world.storedUploadBytes(videoId)).toBeNull();
  });
});

describe('onError', () => {
  it('fires once when the service stays unreachable mid-upload beyond the retries; "Try again" then completes the file', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/popup.html', { ...world.widgetAuth(videoId), uploadType: 'silverlight' });
    const popup = await openPopup(page);
    const throttle = await throttleUploads(context, popup, 256 * 1024);
    await chooseFile(popup, overLimitVideo);
    await waitForProgress(popup, 10);

    const endOutage = world.networkOutage();
    const list = await waitForEvents(page, (all) => all.length > 0, 90_000);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: 'error',
      info: { videoId, reason: 'network', fileName: 'over-limit.mp4', fileSize: fileSize(overLimitVideo) },
    });
    const info = (list[0] as Extract<RecordedEvent, { type: 'error' }>).info;
    expect(info.bytesUploaded).toBeLessThan(fileSize(overLimitVideo));
    expect(await popup.getByRole('alert').innerText()).toMatch(/connection to the server failed/i);

    endOutage();
    await throttle.lift();
    await popup.getByRole('button', { name: 'Try again' }).click();
    const after = await waitForEvents(page, (all) => all.some((event) => event.type === 'success'));
    expect(only('error')(after)).toHaveLength(1);
    expect(only('success')(after)).toHaveLength(1);
    expect(await world.sourceSha256(videoId)).toBe(await sha256File(overLimitVideo));
  });

  it('fires at once, without retrying, when the browser knows it is offline', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const frame = await openOverlay(page);
    await context.setOffline(true);
    await chooseFile(frame, smallVideo);
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'error', info: { videoId, reason: 'network', fileName: 'small.mp4' } });
    expect((await world.video(videoId))?.status).toBe(8);
  });
});

describe('the connection comes back', () => {
  it('an upload cut by going offline continues by itself when the browser is online again, with no click', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', { ...world.widgetAuth(videoId), uploadType: 'silverlight' });
    const frame = await openOverlay(page);
    const throttle = await throttleUploads(context, frame, 256 * 1024);
    await chooseFile(frame, overLimitVideo);
    await waitForProgress(frame, 10);

    await context.setOffline(true);
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list[0]).toMatchObject({ type: 'error', info: { videoId, reason: 'network' } });
    await frame.getByRole('status').filter({ hasText: 'continues by itself' }).waitFor();

    await throttle.lift();
    await context.setOffline(false);
    const after = await waitForEvents(page, (all) => all.some((event) => event.type === 'success'));
    expect(only('error')(after)).toHaveLength(1);
    expect(await world.sourceSha256(videoId)).toBe(await sha256File(overLimitVideo));
  });
});

describe('the handle: progress, state changes, processing and done', () => {
  const states = (list: RecordedUpdate[]) => list.flatMap((update) => (update.type === 'state' ? [update.info.state] : []));

  it('reports progress at most 10 times a second, pause, resume and finishing, resolves done, then the processing outcome', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', { ...world.widgetAuth(videoId), uploadType: 'silverlight' });
    const frame = await openOverlay(page);
    const throttle = await throttleUploads(context, frame, 256 * 1024);
    await chooseFile(frame, overLimitVideo);
    await waitForUpdates(page, (list) => list.filter((update) => update.type === 'progress').length >= 3);
    await frame.getByRole('button', { name: 'Pause' }).click();
    await waitForUpdates(page, (list) => states(list).includes('paused'));
    await throttle.lift();
    await frame.getByRole('button', { name: 'Resume' }).click();

    const outcome = await waitForOutcome(page);
    const size = fileSize(overLimitVideo);
    expect(outcome).toEqual({ resolved: { videoId, fileName: 'over-limit.mp4', fileSize: size } });
    const list = await waitForUpdates(page, (all) => all.some((update) => update.type === 'processed'), 110_000);
    expect(states(list)).toEqual(['paused', 'resumed', 'finishing']);
    expect(list.filter((update) => update.type === 'processed')).toEqual([
      { type: 'processed', info: { videoId, status: 1 }, at: expect.any(Number) },
    ]);

    const progress = list.filter((update) => update.type === 'progress');
    expect(progress.at(-1)!.info).toEqual({ bytesUploaded: size, bytesTotal: size });
    // Never more than 10 in any second: any 11 in a row span at least a second (a little
    // under, for the jitter of message delivery between the frame and the page).
    for (let i = 10; i < progress.length; i++) expect(progress[i]!.at - progress[i - 10]!.at).toBeGreaterThan(900);
    // Finishing comes once every byte was reported.
    const finishing = list.findIndex((update) => update.type === 'state' && update.info.state === 'finishing');
    expect(list.indexOf(progress.at(-1)!)).toBeLessThan(finishing);
  });

  it('done rejects with kind "closed" when the overlay closes mid-upload, and nothing is reported after the close', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', { ...world.widgetAuth(videoId), uploadType: 'silverlight' });
    const frame = await openOverlay(page);
    await throttleUploads(context, frame, 256 * 1024);
    await chooseFile(frame, overLimitVideo);
    await waitForUpdates(page, (list) => list.some((update) => update.type === 'progress'));
    await frame.getByRole('button', { name: 'Pause' }).click();
    await closeOverlay(page);
    expect(await waitForOutcome(page)).toEqual({
      rejected: { name: 'UploadWidgetError', kind: 'closed', message: 'Closed before a file was uploaded.' },
    });
    const atClose = await waitForUpdates(page, () => true);
    await new Promise((wait) => setTimeout(wait, 1000));
    expect(await waitForUpdates(page, () => true)).toEqual(atClose);
  });
});

describe('forged messages', () => {
  /** The channel is not secret from the host page (it is in the iframe's URL): origin and source checks must hold alone. */
  function channelOf(url: string): string {
    const channel = new URL(url).searchParams.get('channel');
    // A forgery on a wrong channel would be dropped for a trivial reason and prove nothing.
    expect(channel).toMatch(/^[0-9a-f]{32}$/);
    return channel!;
  }

  function forgedSuccess(channel: string, videoId: string) {
    return { protocol: 'open-upload/1', channel, type: 'success', info: { videoId, fileName: 'forged.mp4', fileSize: 1 } };
  }

  /** Adds an iframe to the host page and returns its frame once loaded. */
  async function addFrame(page: Page, url: string): Promise<Frame> {
    const name = `forger-${Math.random().toString(36).slice(2)}`;
    await page.evaluate(
      ([src, frameName]) =>
        new Promise<void>((done) => {
          const iframe = document.createElement('iframe');
          iframe.name = frameName!;
          iframe.src = src!;
          iframe.addEventListener('load', () => done());
          document.body.append(iframe);
        }),
      [url, name],
    );
    return page.frames().find((frame) => frame.name() === name)!;
  }

  /** Posts the forged message, then a marker; once the host window has seen the marker, the forgery was delivered too. */
  async function forge(page: Page, from: Frame, message: object): Promise<void> {
    const marker = `marker-${Math.random()}`;
    await from.evaluate(
      ([data, mark]) => {
        window.parent.postMessage(data, '*');
        window.parent.postMessage(mark, '*');
      },
      [message, marker] as const,
    );
    await page.waitForFunction(
      (mark) => (window as unknown as { messages: { data: unknown }[] }).messages.some((m) => m.data === mark),
      marker,
    );
  }

  it('a success message with the right channel from another origin, from a service-origin frame, or from the host page fires nothing', async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    const frame = await openOverlay(page);
    await frame.getByRole('button', { name: /choose/i }).waitFor();
    const message = forgedSuccess(channelOf(frame.url()), videoId);

    // A third origin.
    await forge(page, await addFrame(page, `${world.other.origin}/blank.html`), message);
    // The service's own origin, but another window than the one the widget opened.
    await forge(page, await addFrame(page, `${world.service.address}/UploadWidget/Upload`), message);
    // The host page itself.
    const marker = `marker-${Math.random()}`;
    await page.evaluate(
      ([data, mark]) => {
        window.postMessage(data, '*');
        window.postMessage(mark, '*');
      },
      [message, marker] as const,
    );
    await page.waitForFunction(
      (mark) => (window as unknown as { messages: { data: unknown }[] }).messages.some((m) => m.data === mark),
      marker,
    );

    expect(await waitForEvents(page, () => true)).toEqual([]);
    // The layer is still open: a forged message did not end the widget either.
    const ax = await AccessibleQuery.open(context, page);
    expect(await ax.count('dialog', DIALOG_NAME)).toBe(1);
    await closeOverlay(page);
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'failure', info: { reason: 'closed' } });
  });

  it("a forged success aimed at the popup form's opener fires nothing", async () => {
    const videoId = await world.registerVideo();
    const page = await hostPage('/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    const message = forgedSuccess(channelOf(popup.url()), videoId);
    await forge(page, await addFrame(page, `${world.service.address}/UploadWidget/Upload`), message);
    await forge(page, await addFrame(page, `${world.other.origin}/blank.html`), message);
    expect(await waitForEvents(page, () => true)).toEqual([]);

    // Control: the very same message from the window the widget opened is accepted, so only
    // origin and source made the difference above.
    await popup.evaluate(([data, origin]) => window.opener.postMessage(data, origin), [message, world.host.origin] as const);
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toEqual([{ type: 'success', info: { videoId, fileName: 'forged.mp4', fileSize: 1 } }]);
  });
});
