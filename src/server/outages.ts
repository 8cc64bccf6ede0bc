import { statfs } from 'node:fs/promises';
import { ServiceError, isServiceError } from './errors';
import type { Logger } from './log';
import type { MediaFiles } from './media/mediaFiles';
import { isBucketUnavailable } from './storage/s3Client';
import { SpaceReserve } from './spaceReserve';
import type { ServiceStores } from './storage/stores';
import { isDatabaseUnavailable } from './storage/unavailable';

/** The parts whose loss has an answer of its own; the names /readyz reports them under. */
type OutagePart = 'database' | 'storage';

/** Each kind of outage: its part, and what is wrong in words an operator reads in the log. */
const OUTAGES = {
  DATABASE_UNAVAILABLE: { part: 'database', what: 'the database cannot be reached' },
  STORAGE_UNAVAILABLE: { part: 'storage', what: 'the S3 bucket cannot be reached' },
  NO_SPACE: { part: 'storage', what: 'no space left in DATA_DIR' },
} as const satisfies Record<string, { part: OutagePart; what: string }>;

export type OutageKind = keyof typeof OUTAGES;

function isOutageKind(kind: string): kind is OutageKind {
  return kind in OUTAGES;
}

/**
 * The file system's "no room": a full disk (ENOSPC), a used-up quota (EDQUOT), the process's file
 * size limit (EFBIG, RLIMIT_FSIZE); and SQLite's own word for the first two (SQLITE_FULL), since
 * its file lives in DATA_DIR.
 */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']);

export function isNoSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NO_SPACE_CODES.has(code);
}

/**
 * Why a processing step failed for lack of room, in words that say so, or undefined when it did
 * not. The step's errors carry the cause only in their text: a download's `storage: ENOSPC`,
 * ffmpeg's "No space left on device".
 */
export function noSpaceReason(error: unknown): string | undefined {
  const text = error instanceof Error ? error.message : String(error);
  if (!isNoSpace(error) && !/\b(ENOSPC|EDQUOT|EFBIG|SQLITE_FULL)\b|No space left on device|Disk quota exceeded|File too large/.test(text))
    return undefined;
  return `no space left in DATA_DIR (${text})`;
}

/**
 * The reply a part's failure gets (114, 115 or 113), or undefined when `error` is no part's failure.
 * A ServiceError of 113 is an app's `storageBytes` quota refusing (quota/quotas.ts), not a full disk,
 * which only the file system's own error tells: an operator would be alerted to an outage there is not.
 */
export function partFailureOf(error: unknown): ServiceError | undefined {
  if (isServiceError(error)) return isOutageKind(error.kind) && error.kind !== 'NO_SPACE' ? error : undefined;
  // The bucket first: a bare ECONNREFUSED is an S3 call's, the database's come as DatabaseConnectError.
  if (isBucketUnavailable(error)) return new ServiceError('STORAGE_UNAVAILABLE');
  if (isDatabaseUnavailable(error)) return new ServiceError('DATABASE_UNAVAILABLE');
  if (isNoSpace(error)) return new ServiceError('NO_SPACE');
  return undefined;
}

/** Resolves true once the part works again; never rejects. */
export type RecoveryProbe = () => Promise<boolean>;

/** How often a part that is down is checked, to log its recovery. */
const PROBE_EVERY_MS = 2_000;

/** Free space that counts as room again: what a registration or a small upload needs, with margin. */
const ROOM_AGAIN_BYTES = 4 * 1024 * 1024;

export interface OutagesOptions {
  log: Logger;
  probes: Record<OutageKind, RecoveryProbe>;
  /** Given back when a full disk stops a processing step from recording its outcome; refilled at recovery. */
  reserve?: SpaceReserve;
}

/**
 * Outages of the parts the service depends on. Every channel (API, upload page, tus, SOAP,
 * workers) hands the errors of its parts here: the reply is that part's code, and the log gets
 * ONE line when the outage starts and one when the part works again, instead of a line (or a
 * stack trace) per request. Requests never wait for the part: each one tries it afresh, so the
 * service recovers by itself; the probe only tells the log when.
 */
export class Outages {
  private readonly log: Logger;
  private readonly probes: Record<OutageKind, RecoveryProbe>;
  private readonly reserve: SpaceReserve | undefined;
  private readonly open = new Map<OutageKind, { since: number; timer: NodeJS.Timeout }>();

  constructor(options: OutagesOptions) {
    this.log = options.log;
    this.probes = options.probes;
    this.reserve = options.reserve;
  }

  /** `error`'s reply when it is a part's failure (the outage noted), or undefined when it is not. */
  answer(error: unknown): ServiceError | undefined {
    const failure = partFailureOf(error);
    if (failure) this.begin(failure, error);
    return failure;
  }

  /**
   * Runs `write` (a small record that must land, such as a job's failed outcome); when it fails
   * for lack of room, gives the reserve back to the disk and runs it once more.
   */
  async withReserve<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isNoSpace(error) || !this.reserve || !(await this.reserve.release())) throw error;
      this.answer(error);
      return write();
    }
  }

  /** Puts the reserve in place (at start-up); without room for it, it waits for the next recovery. */
  async fillReserve(): Promise<void> {
    await this.reserve?.fill();
  }

  /** Stops the recovery probes (the service is stopping). */
  close(): void {
    for (const { timer } of this.open.values()) clearInterval(timer);
    this.open.clear();
  }

  private begin(failure: ServiceError, error: unknown): void {
    const kind = failure.kind as OutageKind;
    if (this.open.has(kind)) return;
    const { part, what } = OUTAGES[kind];
    this.log.error(`${part} outage: ${what}; requests answer ${failure.code} until it is back`, {
      part,
      code: failure.code,
      error: String((error as Error)?.message ?? error),
    });
    let probing = false;
    const timer = setInterval(() => {
      if (probing) return;
      probing = true;
      void this.probes[kind]()
        .catch(() => false)
        .then(async (back) => {
          const outage = this.open.get(kind);
          if (!back || outage?.timer !== timer) return;
          clearInterval(timer);
          this.open.delete(kind);
          if (kind === 'NO_SPACE') await this.reserve?.fill();
          this.log.info(`${part} back: ${what} no more`, { part, code: failure.code, downMs: Date.now() - outage.since });
        })
        .finally(() => {
          probing = false;
        });
    }, PROBE_EVERY_MS);
    timer.unref();
    this.open.set(kind, { since: Date.now(), timer });
  }
}

/** Free bytes for an unprivileged writer on the file system holding `dir`; 0 when it cannot be read. */
async function freeBytes(dir: string): Promise<number> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return 0;
  }
}

export interface ServiceOutagesDeps {
  log: Logger;
  stores: ServiceStores;
  files: MediaFiles;
  dataDir: string;
}

/**
 * The service's outages, with a probe per kind. With SQLite the database shares DATA_DIR's disk,
 * so a full disk would also stop the worker from recording why a job failed: a small reserve
 * file is kept there for that.
 */
export function serviceOutages({ log, stores, files, dataDir }: ServiceOutagesDeps): Outages {
  return new Outages({
    log,
    probes: {
      DATABASE_UNAVAILABLE: async () => (await stores.writeProblem()) === undefined,
      STORAGE_UNAVAILABLE: async () => (await files.bucket?.problem()) === undefined,
      NO_SPACE: async () => (await freeBytes(dataDir)) >= ROOM_AGAIN_BYTES,
    },
    // The database shares DATA_DIR's disk only when it is SQLite's file there.
    reserve: stores.exclusive ? new SpaceReserve(dataDir) : undefined,
  });
}
