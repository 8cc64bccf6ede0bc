import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS, MemoryLocker } from '@tus/server';
import type { ResumeState } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import { isServiceError } from '../errors';
import { PRIVATE_DIR_MODE } from '../storage/privateModes';
import type { Handler } from '../http/router';
import { AdvisoryLocker } from '../storage/advisoryLocker';
import { UploadFinisher } from './finisher';
import { issueTicket, secretTag, TICKET_LIFETIME_SECONDS, verifyTicket, type TicketClaims } from './ticket';
import { loadTicketKey } from './ticketKey';
import { createTusEndpoint, uploadUrl } from './tusEndpoint';
import { bucketStoreOptions, bucketUploads, diskUploads, type UploadFiles } from './uploadFiles';

/** The service's side of the widget's upload: tickets, the tus endpoint, resume state, finishing. */
export interface UploadService {
  /** Route handler for everything under `/UploadWidget/files`. */
  tusHandler: Handler;
  /**
   * A ticket for one upload page, valid for {@link TICKET_LIFETIME_SECONDS} while the app still
   * accepts `appSecret`, the secret that signed the page.
   */
  issueTicket(claims: Omit<TicketClaims, 'expiresAt' | 'signedWith'> & { appSecret: string }): string;
  /** The claims of a genuine, unexpired ticket; throws the ServiceError that says why not. */
  verifyTicket(ticket: string | undefined): TicketClaims;
  /**
   * The video's unfinished upload for the uploader to resume, or null. A complete upload whose
   * finish did not run is finished here instead (the video then no longer waits for a file).
   */
  pendingUpload(videoId: string): Promise<ResumeState | null>;
  /** Finishes complete uploads left by a crash; run once at start-up. Returns how many. */
  recheck(): Promise<number>;
  /** Lets finishes under way complete. */
  close(): Promise<void>;
}

/** How often abandoned uploads are looked for, besides at start-up. */
const EXPIRY_SWEEP_MS = 60 * 60 * 1000;

/**
 * Removes the uploads given up: unfinished and idle (no bytes received) for as long as a ticket
 * lives, by their last activity, so an upload resumed a while ago is never removed mid-PATCH. The
 * row goes first, only if the upload is still idle: a PATCH arriving then finds no upload (404)
 * rather than bytes being removed under it. Then its bytes (on S3 the multipart upload is
 * aborted, so no parts stay billed); bytes that cannot be removed now are a stray, removed at the
 * next start. The video keeps waiting for a file and a new upload starts from 0. The per-video
 * quota buckets idle as long go too. At start-up and every hour; instances doing it at once is
 * harmless (a removed upload is gone).
 */
function expireAbandoned(service: ServiceContext, files: UploadFiles): { run(): Promise<void>; stop(): void } {
  const rows = service.stores.uploads;
  const run = async () => {
    let removed = 0;
    const before = service.now() - TICKET_LIFETIME_SECONDS * 1000;
    for (const row of await rows.idleSince(before)) {
      if (!(await rows.removeIdle(row.id, before))) continue;
      removed++;
      await files.store.remove(row.id).catch((error: unknown) => {
        if (error !== ERRORS.FILE_NOT_FOUND)
          service.log.warn('abandoned upload bytes not removed; removed at the next start', { uploadId: row.id, error: String(error) });
      });
    }
    if (removed > 0) service.log.info('abandoned uploads removed', { uploads: removed });
    // The budgets of videos whose pages went quiet: full again by now, as a missing one is.
    await service.stores.quotaBuckets.forgetIdle(service.now() - TICKET_LIFETIME_SECONDS * 1000);
  };
  const timer = setInterval(() => {
    run().catch((error: unknown) => service.log.warn('abandoned uploads not looked for', { error: String(error) }));
  }, EXPIRY_SWEEP_MS);
  timer.unref();
  return { run, stop: () => clearInterval(timer) };
}

/** Upload bytes in the S3 bucket when the files live there, else in DATA_DIR/uploads. */
function uploadFiles(service: ServiceContext): UploadFiles {
  const { config } = service;
  if (service.files.bucket) return bucketUploads(service.files.bucket, bucketStoreOptions(config));
  const directory = join(config.dataDir, 'uploads');
  mkdirSync(directory, { recursive: true, mode: PRIVATE_DIR_MODE });
  return diskUploads(directory, config.dataDir);
}

export async function createUploadService(service: ServiceContext): Promise<UploadService> {
  const rows = service.stores.uploads;
  const files = uploadFiles(service);
  const { store } = files;
  // Left by a crash between replacing an upload's row and removing its bytes, or by a creation whose row was rolled back.
  const removed = await files.sweepStrays(
    async (id) => (await rows.get(id)) !== undefined,
    async (videoId) => {
      const row = await rows.forVideo(videoId);
      return row && row.finishedAt === null ? row.id : undefined;
    },
  );
  if (removed > 0) service.log.info('stray uploads removed at start-up', { uploads: removed });
  const expiry = expireAbandoned(service, files);
  await expiry.run();
  const finisher = new UploadFinisher(service, rows, files);
  const ticketKey = await loadTicketKey(service);
  // Instances on one PostgreSQL share their uploads, so their locks must be shared too.
  const locker = service.config.databaseUrl ? new AdvisoryLocker(service.config.databaseUrl) : new MemoryLocker();

  return {
    tusHandler: createTusEndpoint({ service, files, finisher, ticketKey, locker }),
    issueTicket({ appSecret, ...claims }) {
      return issueTicket(ticketKey, {
        ...claims,
        signedWith: secretTag(ticketKey, appSecret),
        expiresAt: Math.floor(service.now() / 1000) + TICKET_LIFETIME_SECONDS,
      });
    },
    verifyTicket: (ticket) => verifyTicket(ticketKey, ticket, service.now(), service.apps),
    async pendingUpload(videoId) {
      const row = await rows.forVideo(videoId);
      if (!row || row.finishedAt !== null) return null;
      let held: { offset: number; size?: number | undefined };
      try {
        held = await files.within(() => store.getUpload(row.id));
      } catch (error) {
        if (isServiceError(error)) throw error; // the bucket cannot be reached: not the same as gone
        return null; // the tus file is gone: the next upload replaces the row
      }
      const { offset, size } = held;
      // A recording whose length was never declared: the rest of it was only in the page that
      // recorded it, so no file chosen here could continue it. The next upload replaces it.
      if (size === undefined) return null;
      if (offset >= size) {
        await finisher.finish(row.id);
        return null;
      }
      return { uploadUrl: uploadUrl(service, row.id), offset, size, fileName: row.fileName, fingerprint: row.fingerprint };
    },
    recheck: () => finisher.recheck(),
    async close() {
      expiry.stop();
      await finisher.drain();
      if (locker instanceof AdvisoryLocker) await locker.close();
    },
  };
}
