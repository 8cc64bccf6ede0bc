import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryLocker } from '@tus/server';
import type { ResumeState } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import { isApiError } from '../errors';
import { PRIVATE_DIR_MODE } from '../storage/privateModes';
import type { Handler } from '../http/router';
import { AdvisoryLocker } from '../storage/advisoryLocker';
import { UploadFinisher } from './finisher';
import { issueTicket, secretTag, TICKET_LIFETIME_SECONDS, verifyTicket, type TicketClaims } from './ticket';
import { loadTicketKey } from './ticketKey';
import { createTusEndpoint, uploadUrl } from './tusEndpoint';
import { bucketUploads, diskUploads, type UploadFiles } from './uploadFiles';

/** The service's side of the widget's upload: tickets, the tus endpoint, resume state, finishing. */
export interface UploadService {
  /** Route handler for everything under `/UploadWidget/files`. */
  tusHandler: Handler;
  /**
   * A ticket for one upload page, valid for {@link TICKET_LIFETIME_SECONDS} while the app still
   * accepts `appSecret`, the secret that signed the page.
   */
  issueTicket(claims: Omit<TicketClaims, 'expiresAt' | 'signedWith'> & { appSecret: string }): string;
  /** The claims of a genuine, unexpired ticket; throws the ApiError that says why not. */
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

/** Upload bytes in the S3 bucket when the files live there, else in DATA_DIR/uploads. */
function uploadFiles(service: ServiceContext): UploadFiles {
  if (service.files.bucket) return bucketUploads(service.files.bucket);
  const directory = join(service.config.dataDir, 'uploads');
  mkdirSync(directory, { recursive: true, mode: PRIVATE_DIR_MODE });
  return diskUploads(directory, service.config.dataDir);
}

export async function createUploadService(service: ServiceContext): Promise<UploadService> {
  const rows = service.stores.uploads;
  const files = uploadFiles(service);
  const { store } = files;
  // Left by a crash between replacing an upload's row and removing its bytes, or by a creation whose row was rolled back.
  const removed = await files.sweepStrays(async (id) => (await rows.get(id)) !== undefined);
  if (removed > 0) service.log.info('stray uploads removed at start-up', { uploads: removed });
  const finisher = new UploadFinisher(service, rows, files);
  const ticketKey = await loadTicketKey(service);
  // Instances on one PostgreSQL share their uploads, so their locks must be shared too.
  const locker = service.config.databaseUrl ? new AdvisoryLocker(service.config.databaseUrl) : new MemoryLocker();

  return {
    tusHandler: createTusEndpoint({ service, store, finisher, ticketKey, locker }),
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
      let offset: number;
      try {
        offset = (await store.getUpload(row.id)).offset;
      } catch (error) {
        if (isApiError(error)) throw error; // the bucket cannot be reached: not the same as gone
        return null; // the tus file is gone: the next upload replaces the row
      }
      if (offset >= row.size) {
        await finisher.finish(row.id);
        return null;
      }
      return { uploadUrl: uploadUrl(service, row.id), offset, size: row.size, fileName: row.fileName, fingerprint: row.fingerprint };
    },
    recheck: () => finisher.recheck(),
    async close() {
      await finisher.drain();
      if (locker instanceof AdvisoryLocker) await locker.close();
    },
  };
}
