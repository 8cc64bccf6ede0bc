import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { EVENTS, Server, type Locker, type Upload } from '@tus/server';
import { NodeRequest } from 'srvx/node';
import { TICKET_HEADER } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { REQUEST_ID_HEADER } from '../http/requestId';
import type { Handler } from '../http/router';
import { admitUploadQuota, recheckUploadRoom } from '../quota/quotas';
import { admitNewUpload } from './admission';
import type { UploadFinisher } from './finisher';
import { uncopiedBody } from './requestBody';
import { verifyTicket, type TicketClaims } from './ticket';
import { sourceFileName } from './sourceFile';
import { tusErrorReply } from './tusErrors';
import { checkMetadataText } from './tusMetadata';
import { sendTusReply } from './tusReply';
import type { UploadFiles } from './uploadFiles';

/** The tus endpoint's path; upload URLs are `{PUBLIC_URL}/UploadWidget/files/<32 hex>`. */
export const TUS_PATH = '/UploadWidget/files';

const COLLECTION = /^\/UploadWidget\/files\/?$/;
const UPLOAD_URL = /^\/UploadWidget\/files\/([0-9a-f]{32})$/;

/** The upload id named by a request path (already parsed as a URL: dot segments resolved, no query). */
function uploadIdOf(pathname: string): string | undefined {
  return UPLOAD_URL.exec(pathname)?.[1];
}

/** How often a PATCH whose body takes long records that its upload is still active. */
const ACTIVITY_EVERY_MS = 60_000;

/** Random, never the videoId: a second creation under a reused id would reset a finished upload to offset 0. */
function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

export interface TusEndpointDeps {
  service: ServiceContext;
  files: UploadFiles;
  finisher: UploadFinisher;
  ticketKey: Buffer;
  /** Orders requests to one upload: within the process, or across instances (AdvisoryLocker). */
  locker: Locker;
}

export function uploadUrl(service: ServiceContext, uploadId: string): string {
  return `${service.config.publicUrl}${TUS_PATH}/${uploadId}`;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** A request body's Content-Length, or undefined without one (a chunked body). */
function declaredLength(headers: IncomingHttpHeaders): number | undefined {
  const length = header(headers, 'content-length');
  return length !== undefined && /^\d{1,16}$/.test(length) ? Number(length) : undefined;
}

/** Metadata values are the browser's; they are stored only as text, cut to a sane length. */
function metadataText(upload: Upload, key: string, max: number): string {
  const value = upload.metadata?.[key];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/**
 * A creation request declares its length up front, within the ticket's limit, or defers it
 * (`Upload-Defer-Length: 1`: a recording uploaded while it records, whose length is declared by
 * the PATCH that ends it). Returns the declared length, or undefined when deferred.
 */
function checkCreationHeaders(headers: IncomingHttpHeaders, claims: TicketClaims): number | undefined {
  if (header(headers, 'upload-concat') !== undefined) throw new ServiceError('INVALID_PARAMETER', 'concatenation is not accepted');
  const length = header(headers, 'upload-length');
  const deferred = header(headers, 'upload-defer-length');
  if (deferred !== undefined) {
    if (deferred !== '1' || length !== undefined)
      throw new ServiceError('INVALID_PARAMETER', 'Upload-Defer-Length must be 1, and comes without Upload-Length');
    checkMetadataText(header(headers, 'upload-metadata'));
    return undefined;
  }
  if (length === undefined || !/^\d{1,16}$/.test(length))
    throw new ServiceError('INVALID_PARAMETER', 'Upload-Length must be a whole number of bytes');
  const size = Number(length);
  if (size === 0) throw new ServiceError('INVALID_PARAMETER', 'the file is empty');
  if (size > claims.maxFileSize) throw new ServiceError('FILE_TOO_LARGE', `the limit is ${claims.maxFileSize} bytes`);
  checkMetadataText(header(headers, 'upload-metadata'));
  return size;
}

/**
 * The bytes an upload holds a place for in the app's quota: its length, or while that is deferred
 * the most it may grow to (the ticket's limit); the finisher records the real length.
 */
const reservedBytes = (declared: number | undefined, claims: TicketClaims) => declared ?? claims.maxFileSize;

/**
 * The tus server (@tus/server with @tus/file-store under DATA_DIR/uploads, or our BucketStore in
 * the S3 bucket) and the gate in front of
 * it. The gate runs for every method before tus sees the request, so its refusals are ordinary
 * JSON replies: no GET of stored files; a genuine, unexpired ticket; an upload URL only of the
 * ticket's own video; a declared length within the ticket's limit (a deferred one is held to it by
 * tus's `maxSize`, on every PATCH and on the one that declares it). The hooks then do what needs
 * the upload id: record it against the video (replacing an unfinished one) and finish it.
 * The stores' expiry cleanup is never run: it would delete finished uploads.
 */
export function createTusEndpoint(deps: TusEndpointDeps): Handler {
  const { service, files, finisher, ticketKey, locker } = deps;
  const { store } = files;
  const rows = service.stores.uploads;
  const claimsOf = (ticket: string | null | undefined) => verifyTicket(ticketKey, ticket, service.now(), service.apps);
  // Videos with a creation under way. tus runs onUploadCreate before the store makes the file, so
  // a second creation at the same time would replace (and remove) an upload whose file does not
  // exist yet, stranding the file made a moment later; the second one is refused instead.
  const creating = new Set<string>();
  // The upload each of those creations recorded, so a creation the store then failed (a lost
  // bucket, a full disk) takes its row back instead of leaving a row without bytes.
  const created = new Map<string, string>();
  // A creation that stored bytes before failing (a body cut short) keeps its row, to be resumed.
  const storeHolds = (uploadId: string) =>
    store.getUpload(uploadId).then(
      () => true,
      () => false,
    );

  const tus = new Server({
    path: TUS_PATH,
    datastore: store,
    locker,
    namingFunction: newUploadId,
    // The gate has checked the ticket of every request but OPTIONS, which may come without one.
    maxSize: (req) => {
      const ticket = req.headers.get(TICKET_HEADER);
      return ticket ? claimsOf(ticket).maxFileSize : 0;
    },
    allowedHeaders: [TICKET_HEADER],
    // The id the service gives every reply (http/requestId.ts): the uploader passes a refusal's on
    // to the host's onFailure, so an allowed origin must be able to read it as well.
    exposedHeaders: [REQUEST_ID_HEADER],
    // The uploader sends every tus request to its own page's origin (uploadCore's onPageOrigin), so
    // the upload is same-origin under any name of the service; no other page may read replies.
    allowedOrigins: (origin) => origin === new URL(service.config.publicUrl).origin,
    generateUrl: (_req, { id }) => uploadUrl(service, id),
    // tus would otherwise take the last `/` segment of the whole URL, query string included, so
    // `…/files/<own id>?x=/<other id>` passed the gate for one upload and wrote to the other.
    getFileIdFromRequest: (req) => uploadIdOf(new URL(req.url).pathname),
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const claims = claimsOf(req.headers.get(TICKET_HEADER));
      const fileName = metadataText(upload, 'filename', 255);
      const fileType = metadataText(upload, 'filetype', 127);
      // In S3 the bytes go straight to the video's source key (the name the finisher gives it), so
      // finishing completes the multipart upload in place and copies nothing. tus hands this same
      // upload to the store's create next.
      const key = files.sourceKey(claims.videoId, sourceFileName(fileName, fileType));
      if (key !== undefined) upload.storage = { type: 's3', path: key };
      // Checked again here, in one transaction with the insert, so two creations cannot both win.
      const replaced = await service.transaction(async (ctx) => {
        const { stores } = ctx;
        const existing = await admitNewUpload(stores, claims);
        const size = reservedBytes(upload.size, claims);
        await recheckUploadRoom(ctx, claims.appId, claims.videoId, size);
        if (existing) await stores.uploads.removeUnfinished(existing.id);
        await stores.uploads.insert({
          id: upload.id,
          videoId: claims.videoId,
          appId: claims.appId,
          size,
          fileName,
          fileType,
          fingerprint: metadataText(upload, 'fingerprint', 255),
          createdAt: service.now(),
        });
        await stores.videos.setNeedHandleSpecial(claims.videoId, claims.needHandleSpecial);
        return existing;
      });
      created.set(claims.videoId, upload.id);
      if (replaced) {
        await store.remove(replaced.id).catch(() => undefined);
        service.log.info('upload replaced', { videoId: claims.videoId, uploadId: replaced.id });
      }
      return {};
    },
    async onUploadFinish(_req, upload) {
      await finisher.finish(upload.id);
      return {};
    },
    onResponseError: (_req, error) => tusErrorReply(service.outages.answer(error) ?? error, service.log),
  });
  tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
    rows
      .removeUnfinished(id)
      .catch((error: unknown) => service.log.error('terminated upload row not removed', { uploadId: id, error: String(error) }));
  });
  const { metrics } = service;
  /**
   * Records a PATCH's activity while its body arrives (the quotas count an upload in flight by
   * it, the expiry keeps it by it): at most once per {@link ACTIVITY_EVERY_MS}, and at its end.
   * Written without waiting: a lost write only makes the upload look idle a little sooner.
   */
  const activityOf = (uploadId: string) => {
    let recordedAt = service.now();
    const record = () => {
      recordedAt = service.now();
      rows.touch(uploadId, recordedAt).catch((error: unknown) => {
        if (!service.outages.answer(error)) service.log.warn('upload activity not recorded', { uploadId, error: String(error) });
      });
    };
    return {
      receiving: () => {
        if (service.now() - recordedAt >= ACTIVITY_EVERY_MS) record();
      },
      ended: record,
    };
  };
  // tus.handle as @tus/server writes it, but with its refusals sent as JSON (sendTusReply) and
  // a PATCH body taken in without a copy per chunk, which is what the ingest bench measures
  // (docs/benchmarks.md). `appId` is the ticket's: every method but OPTIONS has one.
  const passOn = async (req: IncomingMessage, res: ServerResponse, appId?: string, uploadId?: string) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const request = new NodeRequest({ req, res });
    if (req.method === 'PATCH') {
      if (appId === undefined || uploadId === undefined) throw new TypeError('a PATCH passes the ticket check first');
      const counted = { app_id: appId };
      const activity = activityOf(uploadId);
      Object.defineProperty(request, 'body', {
        value: uncopiedBody(req, (bytes) => {
          metrics.uploadBytes.inc(counted, bytes);
          activity.receiving();
        }),
      });
      metrics.uploadsInProgress.inc(counted);
      // On the reply's end, not the handler's: a reply to a client gone mid-body may never settle.
      res.once('close', () => {
        metrics.uploadsInProgress.dec(counted);
        activity.ended();
      });
    }
    await sendTusReply(res, req.method ?? '', await tus.handleWeb(request), service.log);
  };

  const handle: Handler = async ({ req, res, url }) => {
    const method = req.method ?? 'GET';
    if (method === 'GET') throw new ServiceError('METHOD_NOT_ALLOWED', 'stored uploads cannot be read back');
    if (!['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'].includes(method)) throw new ServiceError('METHOD_NOT_ALLOWED', method);
    let appId: string | undefined;
    if (method !== 'OPTIONS') {
      const claims = claimsOf(header(req.headers, TICKET_HEADER));
      appId = claims.appId;
      metrics.countUploadFailure(res, appId);
      if (method === 'POST') {
        if (!COLLECTION.test(url.pathname)) throw new ServiceError('METHOD_NOT_ALLOWED', 'create uploads at the endpoint itself');
        const size = reservedBytes(checkCreationHeaders(req.headers, claims), claims);
        if (creating.has(claims.videoId)) throw new ServiceError('WRONG_STATE', 'another upload of this video is being created');
        creating.add(claims.videoId);
        try {
          const existing = await admitNewUpload(service.stores, claims);
          // A complete upload whose finish did not run is finished now rather than replaced.
          if (existing && (await finisher.isComplete(existing.id))) {
            await finisher.finish(existing.id);
            throw new ServiceError('WRONG_STATE', 'the video already has its file');
          }
          await admitUploadQuota(service, claims.appId, claims.videoId, size);
          await passOn(req, res, appId);
          if (res.statusCode === 201) metrics.uploadsCreated.inc({ app_id: appId });
          const uploadId = created.get(claims.videoId);
          if (uploadId !== undefined && res.statusCode !== 201 && !(await storeHolds(uploadId))) await rows.removeUnfinished(uploadId);
        } finally {
          creating.delete(claims.videoId);
          created.delete(claims.videoId);
        }
        return;
      }
      const uploadId = uploadIdOf(url.pathname);
      const row = uploadId === undefined ? undefined : await rows.get(uploadId);
      if (!row) throw new ServiceError('NOT_FOUND', 'no such upload');
      if (row.videoId !== claims.videoId || row.appId !== claims.appId)
        throw new ServiceError('NO_PERMISSION', 'the upload belongs to another video');
      // A client that lost the last PATCH's reply (a crash, a failed finish) asks its offset here:
      // it is told "complete" only once the upload is the video's source.
      if (method === 'HEAD' && row.finishedAt === null && (await finisher.isComplete(row.id))) await finisher.finish(row.id);
      // Recorded before any byte is written, and refused if the upload was removed as abandoned meanwhile.
      if (method === 'PATCH' && row.finishedAt === null && !(await rows.touch(row.id, service.now())))
        throw new ServiceError('NOT_FOUND', 'no such upload');
      await passOn(req, res, appId, uploadId);
      return;
    }
    await passOn(req, res);
  };
  // Every store call of one request shares one read of the upload's state (bucketStore.ts), and
  // knows the body's length: HTTP framing holds the body to its Content-Length (a shorter one is a
  // broken request), so a part it covers can be sent while it arrives.
  return (context) => files.within(async () => handle(context), declaredLength(context.req.headers));
}
