/**
 * An app backend that installed open-video-upload and uses `open-video-upload/sdk` against a
 * real service: register, widget config, get, list, a refused call, and a real status callback
 * (checked with its X-Signature) next to a forged one. Prints what it saw as one JSON line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, isApiError, isCallbackError, verifyCallback, type VerifiedCallback } from 'open-video-upload/sdk';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const app = { appId: setting('APP_ID'), appSecret: setting('APP_SECRET') };
const baseUrl = setting('BASE_URL');
const client = createClient({ baseUrl, ...app });

const callbacks: { verified?: VerifiedCallback; refusal?: string; forgedRefusal?: string }[] = [];
let firstCallback: () => void = () => undefined;
const arrived = new Promise<void>((done) => (firstCallback = done));

const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const seen: (typeof callbacks)[number] = {};
    try {
      seen.verified = verifyCallback(body, { ...app, headers: req.headers });
      // The same request with another status, as someone without the secret would send it.
      verifyCallback(body.replace(/VideoStatus=\d+/, 'VideoStatus=1'), { ...app, headers: req.headers });
    } catch (error) {
      if (!isCallbackError(error)) throw error;
      if (seen.verified) seen.forgedRefusal = error.code;
      else seen.refusal = error.code;
    }
    callbacks.push(seen);
    res.writeHead(seen.verified ? 204 : 401).end();
    firstCallback();
  });
});
await new Promise<void>((done) => server.listen(Number(setting('CALLBACK_PORT')), '127.0.0.1', done));

const videoId = await client.postVideo({ VideoTitle: 'From the SDK fixture', CreateUser: 'fixture-user', SourceFileGetType: 1 });
const widget = client.widgetConfig(videoId);
const got = await client.getVideo(videoId);
const list = await client.listUserVideos({ createUser: 'fixture-user', pageSize: 5 });
const byAId = await client.listUserVideosByAId({ createUser: 'fixture-user', aId: app.appId });

let refusedCode = '';
try {
  await createClient({ baseUrl, appId: app.appId, appSecret: 'not-the-secret' }).getVideo(videoId);
} catch (error) {
  if (isApiError(error)) refusedCode = `${error.code}/${error.status}`;
}

// A source that answers 404: the download fails and the service reports status 4 by callback.
const downloadId = await client.postVideo({
  VideoTitle: 'Missing source',
  SourceFileGetType: 2,
  SourceFilePath: setting('MISSING_SOURCE'),
});
await arrived;

console.log(
  JSON.stringify({
    videoId,
    widgetTypes: Object.values(widget).map((value) => typeof value),
    widgetAppId: widget.appId,
    status: got.Video.Status,
    listed: list.VideoList.map((video) => video.Id),
    total: list.Total,
    byAIdTotal: byAId.Total,
    refusedCode,
    downloadId,
    callbacks,
    port: (server.address() as AddressInfo).port,
  }),
);
server.close();
