import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Upload } from 'tus-js-client';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import type { TestService } from './support/service';

const run = promisify(execFile);

/** What these helpers need of a service: where it listens and its apps' credentials (in this process or another). */
export type ServiceClient = Pick<TestService, 'address' | 'auth'>;

/** Host page origin the tests pretend to be (never contacted). */
export const HOST_ORIGIN = 'http://127.0.0.1:5999';
export const CHANNEL = '0123456789abcdef0123456789abcdef';

/** Registers a video through the API, as the app's backend would; returns its VideoId. */
export async function registerVideo(service: ServiceClient, appId = 'app-a', sourceGetType: 1 | 2 = 1): Promise<string> {
  const fields: Record<string, string> = { ...service.auth(appId), VideoTitle: 'clip', SourceFileGetType: String(sourceGetType) };
  if (sourceGetType === 2) fields.SourceFilePath = 'http://127.0.0.1:9/never.mp4';
  const res = await fetch(`${service.address}/Api/Video/Post`, { method: 'POST', body: new URLSearchParams(fields) });
  const body = (await res.json()) as { VideoId: string; AuthMsg: { ResultCode: string } };
  if (body.AuthMsg.ResultCode !== '1') throw new Error(`registration failed: ${JSON.stringify(body)}`);
  return body.VideoId;
}

/** The query the loader builds for the upload page, with the app's fresh credentials. */
export function pageQuery(
  service: ServiceClient,
  videoId: string,
  overrides: Record<string, string | undefined> = {},
  appId = 'app-a',
): URLSearchParams {
  const auth = service.auth(appId);
  const fields: Record<string, string | undefined> = {
    appId: auth.AppId,
    timestamp: auth.Timestamp,
    token: auth.Token,
    videoId,
    uploadType: 'flash',
    needHandleSepcial: 'false',
    channel: CHANNEL,
    origin: HOST_ORIGIN,
    form: 'overlay',
    ...overrides,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) query.set(name, value);
  return query;
}

export interface PageReply {
  status: number;
  headers: Headers;
  html: string;
}

export async function getPage(
  service: ServiceClient,
  query: URLSearchParams | string,
  headers: Record<string, string> = {},
): Promise<PageReply> {
  const res = await fetch(`${service.address}/UploadWidget/Upload?${query}`, { headers });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** The JSON of `<script type="application/json" id="…">`, parsed as the browser would read it. */
export function jsonBlock<T>(html: string, id: string): T | undefined {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as T) : undefined;
}

/** The error page's `ErrorCode : …` line as a reader of its text sees it (tags gone, references decoded). */
export function errorLine(html: string): string | undefined {
  const body = /<body>([\s\S]*)<\/body>/.exec(html)![1]!;
  const text = body.replace(/<[^>]*>/g, '').replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  return text.split('\n').find((line) => line.startsWith('ErrorCode : '));
}

/** Opens a valid upload page and returns its boot data (ticket, endpoint, resume state). */
export async function openUploader(
  service: ServiceClient,
  videoId: string,
  overrides: Record<string, string> = {},
): Promise<UploadPageBoot> {
  const page = await getPage(service, pageQuery(service, videoId, overrides));
  const boot = jsonBlock<UploadPageBoot>(page.html, 'upload-boot');
  if (page.status !== 200 || !boot) throw new Error(`upload page refused: ${page.status} ${page.html}`);
  return boot;
}

export function tusMetadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

export interface TusReply {
  status: number;
  headers: Headers;
  body: string;
}

async function reply(res: Response): Promise<TusReply> {
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** POST (creation) with raw tus headers; `ticket` null sends none. */
export async function tusCreate(
  endpoint: string,
  ticket: string | null,
  size: number | string,
  metadata: Record<string, string> = { filename: 'clip.mp4', filetype: 'video/mp4', fingerprint: 'fp-1' },
): Promise<TusReply> {
  const headers: Record<string, string> = {
    'Tus-Resumable': '1.0.0',
    'Upload-Length': String(size),
    'Upload-Metadata': tusMetadata(metadata),
  };
  if (ticket !== null) headers[TICKET_HEADER] = ticket;
  return reply(await fetch(endpoint, { method: 'POST', headers }));
}

/** POST (creation) of an upload whose length is not known yet (`Upload-Defer-Length`), as a recording starts. */
export async function tusCreateDeferred(endpoint: string, ticket: string, extra: Record<string, string> = {}): Promise<TusReply> {
  const headers = {
    'Tus-Resumable': '1.0.0',
    'Upload-Defer-Length': '1',
    'Upload-Metadata': tusMetadata({ filename: 'recording.webm', filetype: 'video/webm', fingerprint: 'recording' }),
    [TICKET_HEADER]: ticket,
    ...extra,
  };
  return reply(await fetch(endpoint, { method: 'POST', headers }));
}

/** PATCH of `chunk` at `offset`; `extra` adds headers (`Upload-Length` on the one that declares a deferred length). */
export async function tusPatch(
  uploadUrl: string,
  ticket: string | null,
  offset: number,
  chunk: Uint8Array,
  extra: Record<string, string> = {},
): Promise<TusReply> {
  const headers: Record<string, string> = {
    'Tus-Resumable': '1.0.0',
    'Upload-Offset': String(offset),
    'Content-Type': 'application/offset+octet-stream',
    ...extra,
  };
  if (ticket !== null) headers[TICKET_HEADER] = ticket;
  return reply(await fetch(uploadUrl, { method: 'PATCH', headers, body: new Uint8Array(chunk) }));
}

export async function tusHead(uploadUrl: string, ticket: string | null): Promise<TusReply> {
  const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0' };
  if (ticket !== null) headers[TICKET_HEADER] = ticket;
  return reply(await fetch(uploadUrl, { method: 'HEAD', headers }));
}

/** `{AuthMsg:{ResultCode}}` of an error reply. */
export function resultCode(body: string): string {
  return (JSON.parse(body) as { AuthMsg: { ResultCode: string } }).AuthMsg.ResultCode;
}

/** A few megabytes of real, hard-to-compress H.264 made by ffmpeg (noise over its test pattern). */
export async function makeNoisyVideo(dir: string, seconds = 2): Promise<string> {
  const file = join(dir, 'noisy.mp4');
  await run('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=640x360:rate=25:duration=${seconds},noise=alls=60:allf=t`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface ClientRun {
  url: string;
  /** Upload-Offset of every PATCH the client sent. */
  patchOffsets: number[];
}

/** Uploads with tus-js-client in Node, as the uploader does in the browser (1 MiB chunks, the ticket on every request). */
export function uploadWithClient(boot: UploadPageBoot, data: Buffer, resumeUrl?: string): Promise<ClientRun> {
  const patchOffsets: number[] = [];
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint: boot.tusEndpoint,
      uploadUrl: resumeUrl ?? null,
      chunkSize: 1024 * 1024,
      retryDelays: null,
      storeFingerprintForResuming: false,
      headers: { [TICKET_HEADER]: boot.ticket },
      metadata: { filename: 'holiday.MP4', filetype: 'video/mp4', fingerprint: 'fp-holiday' },
      onBeforeRequest(req) {
        if (req.getMethod() === 'PATCH') patchOffsets.push(Number(req.getHeader('Upload-Offset')));
      },
      onSuccess: () => resolve({ url: upload.url!, patchOffsets }),
      onError: reject,
    });
    upload.start();
  });
}
