import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import type { ResumeState } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import type { Handler } from '../http/router';
import { UploadFinisher } from './finisher';
import { issueTicket, TICKET_LIFETIME_SECONDS, type TicketClaims } from './ticket';
import { loadTicketKey } from './ticketKey';
import { createTusEndpoint, uploadUrl } from './tusEndpoint';
import { UploadRows } from './uploadRows';

/** The service's side of the widget's upload: tickets, the tus endpoint, resume state, finishing. */
export interface UploadService {
  /** Route handler for everything under `/UploadWidget/files`. */
  tusHandler: Handler;
  /** A ticket for one upload page, valid for {@link TICKET_LIFETIME_SECONDS}. */
  issueTicket(claims: Omit<TicketClaims, 'expiresAt'>): string;
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

/**
 * FileStore's constructor starts an async mkdir whose callback throws, uncaught, when it fails
 * (e.g. the data directory was removed right after start-up). The folder is made synchronously
 * above, so that check is skipped.
 */
class PreparedFileStore extends FileStore {}
// The method is private in FileStore's types, so it is replaced on the prototype rather than overridden.
(PreparedFileStore.prototype as unknown as { checkOrCreateDirectory(): void }).checkOrCreateDirectory = () => {};

export function createUploadService(service: ServiceContext): UploadService {
  const directory = join(service.config.dataDir, 'uploads');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // No expirationPeriodInMilliseconds: the store's expiry cleanup deletes finished uploads too.
  const store = new PreparedFileStore({ directory });
  const rows = new UploadRows(service.db);
  const finisher = new UploadFinisher(service, rows, store);
  const ticketKey = loadTicketKey(service.config.dataDir);

  return {
    tusHandler: createTusEndpoint({ service, rows, store, finisher, ticketKey }),
    issueTicket(claims) {
      return issueTicket(ticketKey, { ...claims, expiresAt: Math.floor(service.now() / 1000) + TICKET_LIFETIME_SECONDS });
    },
    async pendingUpload(videoId) {
      const row = rows.forVideo(videoId);
      if (!row || row.finished_at !== null) return null;
      let offset: number;
      try {
        offset = (await store.getUpload(row.id)).offset;
      } catch {
        return null; // the tus file is gone: the next upload replaces the row
      }
      if (offset >= row.size) {
        await finisher.finish(row.id);
        return null;
      }
      return { uploadUrl: uploadUrl(service, row.id), offset, size: row.size, fileName: row.file_name, fingerprint: row.fingerprint };
    },
    recheck: () => finisher.recheck(),
    close: () => finisher.drain(),
  };
}
