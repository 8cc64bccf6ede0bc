import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AppRecord } from '../../src/server/auth/apps';
import type { Video } from '../../src/server/storage/videos';
import { createLogger } from '../../src/server/log';
import { startTestService, type TestService } from '../../test/support/service';
import { storedMedia, storedUploadBytes } from '../../test/support/storage';
import { launchBrowser } from './browser';
import { startCallbackReceiver, type CallbackReceiver } from './callbackReceiver';
import { DIST_DIR, startHostServer, startOtherOrigin, type HostServer } from './hostServer';

/** The built files the e2e tier loads; `npm test` builds before running vitest. */
const BUILT_FILES = [
  'Scripts/UploadWidget/initUploadWidget.js',
  'Scripts/UploadWidget/initUploadABoxWidget.js',
  'upload/.vite/manifest.json',
  'npm/index.js',
];

export function assertBuilt(): void {
  const missing = BUILT_FILES.filter((file) => !existsSync(join(DIST_DIR, file)));
  if (missing.length > 0) {
    throw new Error(`e2e needs the built widget; run \`npm run build\` first (missing: ${missing.map((f) => `dist/${f}`).join(', ')})`);
  }
}

/** Allowed origins are the app's registered host origins; app-b has none, so the loader-reported origin is used. */
export const APP_A = 'app-a';
export const APP_B = 'app-b';

export interface World {
  service: TestService;
  host: HostServer;
  other: { origin: string; close(): Promise<void> };
  callbacks: CallbackReceiver;
  browser: Browser;
  /** The service's log so far, one parsed JSON line each (ids and codes, never secrets). */
  logLines(): Record<string, unknown>[];
  /** POST /Api/Video/Post with SourceFileGetType 1, as the app backend does; returns the VideoId. */
  registerVideo(appId?: string, title?: string): Promise<string>;
  /** The widget options the app backend hands its page (appId, timestamp, token, videoId). */
  widgetAuth(videoId: string, appId?: string, at?: number): { appId: string; timestamp: string; token: string; videoId: string };
  /** A host page URL carrying `config` in its hash. */
  hostUrl(path: string, config: object, query?: string): string;
  /** Opens that host page in a new tab of `context`. */
  openHostPage(context: BrowserContext, path: string, config: object, query?: string): Promise<Page>;
  /** GET /Api/Video/Get. */
  getVideo(
    videoId: string,
    appId?: string,
  ): Promise<{
    Video: { Status: number; Duration: number; PicSavePath: string };
    VideoPlayFile: { VideoURL: string; Bitrate: unknown; BitrateLabel: string }[];
    MediaSever: Record<string, string>;
    AuthMsg: { ResultCode: string };
  }>;
  video(videoId: string): Promise<Video | undefined>;
  /** sha256 of the stored source file (in DATA_DIR or the bucket), once the service recorded one. */
  sourceSha256(videoId: string): Promise<string | undefined>;
  /**
   * Bytes the service holds for the video's tus upload (in DATA_DIR/uploads or the bucket), or null
   * without one, once the service has finished writing what arrived: a request the browser just
   * aborted is still being written for a moment, and the S3 store moves its unfinished part away
   * and back while it does (reading then would see 0). Only for an upload that is not sending.
   */
  storedUploadBytes(videoId: string): Promise<number | null>;
  /**
   * The service becomes unreachable: open connections are reset and new ones refused, as when a
   * network drops. (DevTools' offline emulation cannot do this: it lets a request already sending
   * its body finish.) Returns the function that ends the outage.
   */
  networkOutage(): () => void;
  stop(): Promise<void>;
}

export interface WorldOptions {
  /** Extra service environment, e.g. MAX_UPLOAD_BYTES_FLASH. */
  env?: Record<string, string>;
}

/** The world with Chromium (through Playwright), as most of the e2e tier drives it. */
export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const world = await startServiceWorld(options);
  const browser = await launchBrowser();
  return {
    ...world,
    browser,
    async stop() {
      await browser.close().catch(() => undefined);
      await world.stop();
    },
  };
}

/** The service, the host pages and the callback receiver, for a browser the test drives itself (the engines tier). */
export type ServiceWorld = Omit<World, 'browser'>;

export async function startServiceWorld(options: WorldOptions = {}): Promise<ServiceWorld> {
  assertBuilt();
  const host = await startHostServer();
  const other = await startOtherOrigin();
  const callbacks = await startCallbackReceiver();
  const apps: AppRecord[] = [
    { appId: APP_A, appSecret: 'secret-of-app-a-0123456789', callbackUrl: callbacks.url, allowedOrigins: [host.origin] },
    { appId: APP_B, appSecret: 'secret-of-app-b-0123456789', callbackUrl: callbacks.url },
  ];
  const logged: string[] = [];
  const service = await startTestService({ apps, env: options.env, log: createLogger((line) => logged.push(line)) });
  host.serviceUrl = service.address;

  const world: ServiceWorld = {
    service,
    host,
    other,
    callbacks,
    logLines: () => logged.map((line) => JSON.parse(line) as Record<string, unknown>),
    async registerVideo(appId = APP_A, title = 'e2e video') {
      const res = await fetch(`${service.address}/Api/Video/Post`, {
        method: 'POST',
        body: new URLSearchParams({ ...service.auth(appId), VideoTitle: title, SourceFileGetType: '1', CreateUser: 'e2e' }),
      });
      const body = (await res.json()) as { AuthMsg: { ResultCode: string }; VideoId: string };
      if (body.AuthMsg.ResultCode !== '1') throw new Error(`registration failed: ${JSON.stringify(body)}`);
      return body.VideoId;
    },
    widgetAuth(videoId, appId = APP_A, at = Date.now()) {
      const { AppId, Timestamp, Token } = service.auth(appId, at);
      return { appId: AppId, timestamp: Timestamp, token: Token, videoId };
    },
    hostUrl(path, config, query = '') {
      return `${host.origin}${path}${query ? `?${query}` : ''}#${encodeURIComponent(JSON.stringify(config))}`;
    },
    async openHostPage(context, path, config, query = '') {
      const page = await context.newPage();
      await page.goto(this.hostUrl(path, config, query));
      return page;
    },
    async getVideo(videoId, appId = APP_A) {
      const query = new URLSearchParams({ ...service.auth(appId), Id: videoId });
      return (await (await fetch(`${service.address}/Api/Video/Get?${query}`)).json()) as Awaited<ReturnType<World['getVideo']>>;
    },
    async video(videoId) {
      return await service.context.stores.videos.get(videoId);
    },
    async sourceSha256(videoId) {
      // The service keeps a plain file name, under media/<videoId>/ in DATA_DIR or the bucket.
      const file = (await service.context.stores.videos.get(videoId))?.sourceFile;
      const bytes = file && (await storedMedia(service, videoId, file));
      return bytes ? createHash('sha256').update(bytes).digest('hex') : undefined;
    },
    async storedUploadBytes(videoId) {
      const read = async () => {
        const row = await service.db.selectFrom('uploads').select('id').where('video_id', '=', videoId).executeTakeFirst();
        return row ? storedUploadBytes(service, row.id) : null;
      };
      // Settled: the same figure three times, 200 ms apart.
      let last = await read();
      for (let same = 1; same < 3;) {
        await new Promise((done) => setTimeout(done, 200));
        const now = await read();
        same = now === last ? same + 1 : 1;
        last = now;
      }
      return last;
    },
    networkOutage() {
      const refuse = (socket: Socket) => socket.destroy();
      service.server.prependListener('connection', refuse);
      service.server.closeAllConnections();
      return () => {
        service.server.off('connection', refuse);
      };
    },
    async stop() {
      await service.stop(true);
      await Promise.all([host.close(), other.close(), callbacks.close()]);
    },
  };
  return world;
}
