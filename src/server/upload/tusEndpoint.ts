import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { FileStore } from '@tus/file-store';
import { EVENTS, Server, type Upload } from '@tus/server';
import { TICKET_HEADER } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import { ApiError } from '../errors';
import type { Handler } from '../http/router';
import { admitNewUpload } from './admission';
import type { UploadFinisher } from './finisher';
import { verifyTicket, type TicketClaims } from './ticket';
import type { UploadRows } from './uploadRows';
import { tusErrorReply } from './tusErrors';

/** The tus endpoint's path; upload URLs are `{PUBLIC_URL}/UploadWidget/files/<32 hex>`. */
export const TUS_PATH = '/UploadWidget/files';

const COLLECTION = /^\/UploadWidget\/files\/?$/;
const UPLOAD_URL = /^\/UploadWidget\/files\/([0-9a-f]{32})$/;

/** The upload id named by a request path (already parsed as a URL: dot segments resolved, no query). */
function uploadIdOf(pathname: string): string | undefined {
  return UPLOAD_URL.exec(pathname)?.[1];
}

/** Random, never the videoId: a second creation under a reused id would reset a finished upload to offset 0. */
function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

export interface TusEndpointDeps {
  service: ServiceContext;
  rows: UploadRows;
  store: FileStore;
  finisher: UploadFinisher;
  ticketKey: Buffer;
}

export function uploadUrl(service: ServiceContext, uploadId: string): string {
  // Read on every call: PUBLIC_URL is settled only once the port is known.
  return `${service.config.publicUrl}${TUS_PATH}/${uploadId}`;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Metadata values are the browser's; they are stored only as text, cut to a sane length. */
function metadataText(upload: Upload, key: string, max: number): string {
  const value = upload.metadata?.[key];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** A creation request must declare its length up front, within the ticket's limit. */
function checkCreationHeaders(headers: IncomingHttpHeaders, claims: TicketClaims): void {
  if (header(headers, 'upload-defer-length') !== undefined || header(headers, 'upload-concat') !== undefined) {
    throw new ApiError('INVALID_PARAMETER', 'Upload-Length is required; deferred length and concatenation are not accepted');
  }
  const length = header(headers, 'upload-length');
  if (length === undefined || !/^\d{1,16}$/.test(length)) throw new ApiError('INVALID_PARAMETER', 'Upload-Length must be a whole number of bytes');
  const size = Number(length);
  if (size === 0) throw new ApiError('INVALID_PARAMETER', 'the file is empty');
  if (size > claims.maxFileSize) throw new ApiError('FILE_TOO_LARGE', `the limit is ${claims.maxFileSize} bytes`);
}

/**
 * The tus server (@tus/server + @tus/file-store under DATA_DIR/uploads) and the gate in front of
 * it. The gate runs for every method before tus sees the request, so its refusals are ordinary
 * JSON replies: no GET of stored files; a genuine, unexpired ticket; an upload URL only of the
 * ticket's own video; a declared length within the ticket's limit. The hooks then do what needs
 * the upload id: record it against the video (replacing an unfinished one) and finish it.
 * The file store's expiry cleanup is never run: it would delete finished uploads.
 */
export function createTusEndpoint(deps: TusEndpointDeps): Handler {
  const { service, rows, store, finisher, ticketKey } = deps;
  const claimsOf = (ticket: string | null | undefined) => verifyTicket(ticketKey, ticket, service.now());

  const tus = new Server({
    path: TUS_PATH,
    datastore: store,
    namingFunction: newUploadId,
    // The gate has checked the ticket of every request but OPTIONS, which may come without one.
    maxSize: (req) => {
      const ticket = req.headers.get(TICKET_HEADER);
      return ticket ? claimsOf(ticket).maxFileSize : 0;
    },
    allowedHeaders: [TICKET_HEADER],
    // The upload page is served from PUBLIC_URL, so the upload is same-origin; no other page may read replies.
    allowedOrigins: (origin) => origin === new URL(service.config.publicUrl).origin,
    generateUrl: (_req, { id }) => uploadUrl(service, id),
    // tus would otherwise take the last `/` segment of the whole URL, query string included, so
    // `…/files/<own id>?x=/<other id>` passed the gate for one upload and wrote to the other.
    getFileIdFromRequest: (req) => uploadIdOf(new URL(req.url).pathname),
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const claims = claimsOf(req.headers.get(TICKET_HEADER));
      // Checked again here, in one transaction with the insert, so two creations cannot both win.
      const replaced = service.db.transaction(() => {
        const existing = admitNewUpload(service, rows, claims);
        if (existing) rows.removeUnfinished(existing.id);
        rows.insert({
          id: upload.id,
          video_id: claims.videoId,
          app_id: claims.appId,
          size: upload.size ?? 0,
          file_name: metadataText(upload, 'filename', 255),
          file_type: metadataText(upload, 'filetype', 127),
          fingerprint: metadataText(upload, 'fingerprint', 255),
          created_at: service.now(),
        });
        service.db.prepare('UPDATE videos SET need_handle_special = ? WHERE id = ?').run(claims.needHandleSpecial ? 1 : 0, claims.videoId);
        return existing;
      })();
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
    onResponseError: (_req, error) => tusErrorReply(error, service.log),
  });
  tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => rows.removeUnfinished(id));

  return async ({ req, res, url }) => {
    const method = req.method ?? 'GET';
    if (method === 'GET') throw new ApiError('METHOD_NOT_ALLOWED', 'stored uploads cannot be read back');
    if (!['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'].includes(method)) throw new ApiError('METHOD_NOT_ALLOWED', method);
    if (method !== 'OPTIONS') {
      const claims = claimsOf(header(req.headers, TICKET_HEADER));
      if (method === 'POST') {
        if (!COLLECTION.test(url.pathname)) throw new ApiError('METHOD_NOT_ALLOWED', 'create uploads at the endpoint itself');
        checkCreationHeaders(req.headers, claims);
        const existing = admitNewUpload(service, rows, claims);
        // A complete upload whose finish did not run is finished now rather than replaced.
        if (existing && (await finisher.isComplete(existing.id))) {
          await finisher.finish(existing.id);
          throw new ApiError('WRONG_STATE', 'the video already has its file');
        }
      } else {
        const uploadId = uploadIdOf(url.pathname);
        const row = uploadId === undefined ? undefined : rows.get(uploadId);
        if (!row) throw new ApiError('NOT_FOUND', 'no such upload');
        if (row.video_id !== claims.videoId || row.app_id !== claims.appId) throw new ApiError('NO_PERMISSION', 'the upload belongs to another video');
      }
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    await tus.handle(req, res);
  };
}
