/**
 * The widget in Chromium against the real service, beside what the browser itself can do:
 *
 * 1. Throughput. A real MP4 (ffmpeg) padded to 256 MiB and 1 GiB, chosen through the overlay
 *    widget, against two baselines sending the same File from a page to a bare node:http sink on
 *    127.0.0.1: one `xhr.send(file)` PUT and one `fetch` PUT. Interleaved round by round in one
 *    run, so all three see the same machine. MB/s (10^6 bytes), ratio to xhr, the renderer's and
 *    the receiving process's peak RSS, and whether the sha256 of what was stored matches.
 * 2. `openUpload` → interactive (the file input is in the page), p50/p95, cold (new profile) and
 *    warm (same profile, second open), and the bytes on the wire of a first open, on loopback and
 *    with DevTools throttling at 10 Mbit/s and 40 ms.
 *
 * Bounded: 5 rounds at 256 MiB, 3 at 1 GiB, 9 opens per kind; about 3–4 minutes on 2 cores.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { appendFile, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { newContext } from '../e2e/support/browser';
import { fileSize, makeVideo, removeVideo, sha256File } from '../e2e/support/media';
import { chooseFile, chooseFileButton, events, uploadFrame } from '../e2e/support/widget';
import { APP_B, startWorld, type World } from '../e2e/support/world';
import { sampleRss } from './support/memory';
import { rendererPids, sampleRendererRss } from './support/processMemory';
import { startSink, type Sink } from './support/sink';
import { median, percentile } from './support/stats';
import { fixed, MIB, printTable } from './support/table';
import { storedSource } from './upload';

/** Rounds per size: more of the short ones, where one slow moment weighs more. */
const SIZES = [
  { mebibytes: 256, rounds: 5 },
  { mebibytes: 1024, rounds: 3 },
];
const OPENS = 9;
const MODES = ['widget', 'xhr', 'fetch'] as const;
type Mode = (typeof MODES)[number];

interface Sent {
  seconds: number;
  /** The body's request alone (PATCH or PUT), first byte sent to the reply's end, as the browser timed it. */
  requestSeconds: number;
  rendererMib: number;
  /** The most any of the round's renderers grew while sending. */
  rendererGrowthMib: number;
  receiverMib: number;
  sha256: string;
}

/** A real MP4 of a few seconds, padded with random bytes to exactly `mebibytes` (the widget checks only its first bytes). */
async function paddedVideo(dir: string, mebibytes: number): Promise<string> {
  const video = await makeVideo({ seconds: 2, bitrate: 1_000_000, width: 320, height: 240 }, 'bench.mp4');
  const file = join(dir, `bench-${mebibytes}.mp4`);
  await copyFile(video, file);
  removeVideo(video);
  const block = randomBytes(MIB);
  let size = fileSize(file);
  while (size < mebibytes * MIB) {
    const piece = block.subarray(0, Math.min(MIB, mebibytes * MIB - size));
    await appendFile(file, piece);
    size += piece.length;
  }
  return file;
}

/** How long the browser says the context's one PATCH or PUT took, from its start to the reply's end. */
function requestTimer(context: BrowserContext): () => Promise<number> {
  let seconds: number | undefined;
  context.on('requestfinished', (request) => {
    if (request.method() === 'PATCH' || request.method() === 'PUT') seconds = request.timing().responseEnd / 1000;
  });
  return async () => {
    const deadline = Date.now() + 10_000;
    while (seconds === undefined && Date.now() < deadline) await new Promise((wake) => setTimeout(wake, 20));
    if (seconds === undefined) throw new Error('the upload request never finished');
    return seconds;
  };
}

/** Times `work` with the renderer's and this process's RSS sampled. */
async function measured(existing: ReadonlySet<number>, work: () => Promise<void>): Promise<Omit<Sent, 'sha256' | 'requestSeconds'>> {
  const renderer = sampleRendererRss(existing);
  const receiver = sampleRss(50);
  const start = performance.now();
  await work();
  const seconds = (performance.now() - start) / 1000;
  const memory = receiver.stop();
  const rendererPeak = renderer.stop();
  return {
    seconds,
    rendererMib: rendererPeak.peak,
    rendererGrowthMib: rendererPeak.growth,
    receiverMib: memory.before + memory.peakGrowth,
  };
}

async function widgetRound(world: World, file: string): Promise<Sent> {
  const existing = new Set(rendererPids());
  const context = await newContext(world.browser);
  try {
    const videoId = await world.registerVideo();
    const requestTook = requestTimer(context);
    const page = await world.openHostPage(context, '/overlay.html', world.widgetAuth(videoId));
    await page.getByRole('button', { name: 'Open upload' }).click();
    const frame = await uploadFrame(page);
    await chooseFileButton(frame).waitFor();
    const sent = await measured(existing, async () => {
      await chooseFile(frame, file);
      for (;;) {
        const list = await events(page);
        if (list.some((event) => event.type === 'success')) return;
        if (list.some((event) => event.type !== 'success')) throw new Error(`the widget reported ${JSON.stringify(list)}`);
        await new Promise((wake) => setTimeout(wake, 20));
      }
    });
    const requestSeconds = await requestTook();
    const stored = await storedSource(world.service, videoId);
    const sha256 = await sha256File(stored);
    rmSync(stored);
    return { ...sent, requestSeconds, sha256 };
  } finally {
    await context.close();
  }
}

async function baselineRound(world: World, sink: Sink, sinkDir: string, file: string, mode: 'xhr' | 'fetch'): Promise<Sent> {
  const existing = new Set(rendererPids());
  const context = await newContext(world.browser);
  try {
    const requestTook = requestTimer(context);
    const page = await context.newPage();
    await page.goto(`${sink.url}/`);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('#file').click()]);
    await chooser.setFiles(file);
    const name = `${mode}.bin`;
    const sent = await measured(existing, async () => {
      const status = await page.evaluate(
        async ({ name, mode }) => {
          const chosen = (document.getElementById('file') as HTMLInputElement).files![0]!;
          if (mode === 'fetch') return (await fetch(`/${name}`, { method: 'PUT', body: chosen })).status;
          return new Promise<number>((resolve, reject) => {
            const xhr = new XMLHttpRequest();
            xhr.open('PUT', `/${name}`);
            xhr.onload = () => resolve(xhr.status);
            xhr.onerror = () => reject(new Error('xhr failed'));
            xhr.send(chosen);
          });
        },
        { name, mode },
      );
      if (status !== 204) throw new Error(`${mode} PUT: ${status}`);
    });
    const requestSeconds = await requestTook();
    const stored = join(sinkDir, name);
    const sha256 = await sha256File(stored);
    rmSync(stored);
    return { ...sent, requestSeconds, sha256 };
  } finally {
    await context.close();
  }
}

async function throughput(world: World, work: string): Promise<void> {
  const sinkDir = join(world.service.dataDir, 'bare-sink');
  mkdirSync(sinkDir);
  const sink = await startSink(sinkDir);
  try {
    const rows: (string | number)[][] = [];
    for (const { mebibytes, rounds } of SIZES) {
      const file = await paddedVideo(work, mebibytes);
      const expected = await sha256File(file);
      const runs: Record<Mode, Sent[]> = { widget: [], xhr: [], fetch: [] };
      for (let round = 0; round < rounds; round++) {
        // The order turns each round, so no mode always follows the same one.
        for (let step = 0; step < MODES.length; step++) {
          const mode = MODES[(round + step) % MODES.length]!;
          runs[mode].push(mode === 'widget' ? await widgetRound(world, file) : await baselineRound(world, sink, sinkDir, file, mode));
        }
      }
      const bytes = statSync(file).size;
      const rate = (mode: Mode) => bytes / 1e6 / median(runs[mode].map((run) => run.seconds));
      const requestRate = (mode: Mode) => bytes / 1e6 / median(runs[mode].map((run) => run.requestSeconds));
      for (const mode of MODES) {
        const all = runs[mode];
        rows.push([
          `${mebibytes} MiB`,
          mode === 'widget' ? 'widget (tus, whole File)' : mode === 'xhr' ? 'xhr.send(file) PUT' : 'fetch PUT',
          fixed(rate(mode), 0),
          all.map((run) => fixed(bytes / 1e6 / run.seconds, 0)).join(' '),
          fixed(rate(mode) / rate('xhr'), 2),
          fixed(requestRate(mode), 0),
          fixed(requestRate(mode) / requestRate('xhr'), 2),
          fixed(Math.max(...all.map((run) => run.rendererMib)), 0),
          fixed(Math.max(...all.map((run) => run.rendererGrowthMib)), 1),
          fixed(Math.max(...all.map((run) => run.receiverMib)), 0),
          all.every((run) => run.sha256 === expected) ? 'yes' : 'NO',
        ]);
      }
      await rm(file);
    }
    console.log(
      `throughput: ${SIZES.map((size) => `${size.rounds} rounds at ${size.mebibytes} MiB`).join(', ')}, modes interleaved; MB/s = 10^6 bytes/s from choosing (widget) or send() to the reply; request MB/s: the PATCH or PUT alone, as the browser timed it\n`,
    );
    printTable(
      [
        'file',
        'sender',
        'MB/s (median)',
        'rounds',
        'ratio to xhr',
        'request MB/s',
        'ratio',
        'renderer peak RSS MiB',
        'renderer growth MiB',
        'receiver peak RSS MiB',
        'sha256 = file',
      ],
      rows,
    );
  } finally {
    await sink.close();
  }
}

/**
 * Marks, in the upload page, when its file input exists: the page is interactive from then. A
 * string, since tsx would wrap a named function in a helper the page does not have.
 */
async function markInteractive(context: BrowserContext): Promise<void> {
  await context.addInitScript(`if (location.pathname === '/UploadWidget/Upload') {
  new MutationObserver((_, observer) => {
    if (!document.querySelector('input[type=file]')) return;
    window.interactiveAt = performance.timeOrigin + performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}`);
}

interface Open {
  ms: number;
  /** Bytes received from the service by interactive, and once the transport has loaded too. */
  bytesToInteractive: number;
  bytesWithTransport: number;
}

async function throttled(session: CDPSession, slow: boolean): Promise<void> {
  await session.send('Network.enable');
  if (slow)
    await session.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 40,
      downloadThroughput: 10e6 / 8,
      uploadThroughput: 10e6 / 8,
    });
}

/** Opens the overlay on a fresh host page of `context` and measures it. */
async function openOnce(world: World, context: BrowserContext, videoId: string, slow: boolean): Promise<Open> {
  const page: Page = await context.newPage();
  const session = await context.newCDPSession(page);
  await throttled(session, slow);
  const urls = new Map<string, string>();
  const bytes = new Map<string, number>();
  session.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
  session.on('Network.loadingFinished', (event) => bytes.set(event.requestId, event.encodedDataLength));
  // The host on 127.0.0.1, the service's own site: the upload frame then shares the page's
  // process, so this one DevTools session sees and throttles its requests too. (From another site
  // it is an out-of-process frame, which adds a renderer start to a cold open.)
  await page.goto(world.hostUrl('/overlay.html', world.widgetAuth(videoId, APP_B)).replace('//localhost:', '//127.0.0.1:'));
  const openedAt = await page.evaluate(() => {
    const at = performance.timeOrigin + performance.now();
    document.getElementById('open')!.click();
    return at;
  });
  const frame: Frame = await uploadFrame(page);
  const interactiveAt = await (
    await frame.waitForFunction(() => (window as unknown as { interactiveAt?: number }).interactiveAt ?? 0, null, { polling: 10 })
  ).jsonValue();
  const serviceBytes = (transport: boolean) =>
    [...bytes]
      .filter(([id]) => urls.get(id)?.startsWith(world.service.address) && (transport || !/uploadCore-/.test(urls.get(id)!)))
      .reduce((sum, [, n]) => sum + n, 0);
  const bytesToInteractive = serviceBytes(false);
  const deadline = Date.now() + 10_000;
  // The transport follows first paint; a warm open takes it from the cache.
  while (![...urls].some(([id, url]) => /uploadCore-/.test(url) && bytes.has(id)) && Date.now() < deadline)
    await new Promise((wake) => setTimeout(wake, 20));
  await session.detach();
  await page.close();
  return { ms: interactiveAt - openedAt, bytesToInteractive, bytesWithTransport: serviceBytes(true) };
}

async function openTimes(world: World): Promise<void> {
  // app-b has no allowedOrigins, so a host page on 127.0.0.1 may open the widget.
  const videoId = await world.registerVideo(APP_B);
  const rows: (string | number)[][] = [];
  for (const slow of [false, true]) {
    const cold: Open[] = [];
    const warm: Open[] = [];
    for (let round = 0; round < OPENS; round++) {
      const context = await newContext(world.browser);
      try {
        await markInteractive(context);
        cold.push(await openOnce(world, context, videoId, slow));
        warm.push(await openOnce(world, context, videoId, slow));
      } finally {
        await context.close();
      }
    }
    for (const [kind, opens] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      const sorted = opens.map((open) => open.ms).sort((a, b) => a - b);
      rows.push([
        slow ? '10 Mbit/s, 40 ms' : 'loopback',
        kind,
        fixed(percentile(sorted, 0.5), 0),
        fixed(percentile(sorted, 0.95), 0),
        fixed(median(opens.map((open) => open.bytesToInteractive)) / 1000, 1),
        fixed(median(opens.map((open) => open.bytesWithTransport)) / 1000, 1),
      ]);
    }
  }
  console.log(
    `\nopenUpload -> interactive (overlay; the file input is in the page), ${OPENS} opens each; bytes from the service on the wire (loader, page, JS, CSS; then the transport)\n`,
  );
  printTable(['network', 'cache', 'p50 ms', 'p95 ms', 'KB to interactive', 'KB with transport'], rows);
}

export async function browserBench(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'ovu-bench-browser-'));
  const world = await startWorld();
  try {
    await throughput(world, work);
    await openTimes(world);
  } finally {
    await world.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await browserBench();
