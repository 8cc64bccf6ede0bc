import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS as TUS_ERRORS, MemoryLocker, type Lock, type Locker, type RequestRelease } from '@tus/server';
import pg from 'pg';
import { ServiceError } from '../errors';
import { isDatabaseUnavailable } from './unavailable';

/** The advisory-lock key of an upload: 64 bits of a hash, prefixed so no other use of advisory locks (the migrator's) meets it. */
const KEY = `hashtextextended('tus-upload:' || $1::text, 0)`;
/** Where an instance waiting for an upload asks the holder, whichever instance it is, to let go. */
const RELEASE_CHANNEL = 'tus_upload_release';
/** Tries back off from this up to {@link LONGEST_WAIT_MS}; the holder lets go within tus's 3 s drain. */
const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 250;
/** How the locks' session shows in `pg_stat_activity`. */
const APPLICATION_NAME = 'ovu tus locks';
/** As @tus/server's MemoryLocker: past it the request fails with tus's lock timeout. */
const ACQUIRE_TIMEOUT_MS = 30_000;

/**
 * tus upload locks shared by every instance on one PostgreSQL database, so two PATCHes to one
 * upload on different instances cannot interleave. Within the instance, @tus/server's
 * MemoryLocker orders requests and asks the holder to let go, as it does with one process; across
 * instances each lock is a session advisory lock, taken with `pg_try_advisory_lock` on one
 * connection of the locker's own (never the query pool's: a held lock pins its session for the
 * whole PATCH), retried with backoff, and the holder is asked to let go through NOTIFY on
 * {@link RELEASE_CHANNEL}, which every instance LISTENs to on that same connection.
 */
export class AdvisoryLocker implements Locker {
  /** This instance's own order of requests per upload. */
  readonly local: MemoryLocker;
  /** Uploads this instance holds, with how to ask each holding request to let go. */
  private readonly held = new Map<string, RequestRelease>();
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly acquireTimeoutMs = ACQUIRE_TIMEOUT_MS,
  ) {
    this.local = new MemoryLocker({ acquireLockTimeout: acquireTimeoutMs });
  }

  newLock(id: string): Lock {
    return new AdvisoryLock(this, id);
  }

  /** Takes the upload's lock across instances, asking its holder to let go until it does. */
  async acquire(id: string, signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.acquireTimeoutMs;
    let wait = FIRST_WAIT_MS;
    for (;;) {
      const client = await this.session();
      const { rows } = await client.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${KEY}) AS got`, [id]);
      if (rows[0]!.got) {
        this.held.set(id, requestRelease);
        return;
      }
      await client.query('SELECT pg_notify($1, $2)', [RELEASE_CHANNEL, id]);
      if (signal.aborted || Date.now() + wait > deadline) throw TUS_ERRORS.ERR_LOCK_TIMEOUT;
      await sleep(wait);
      wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    }
  }

  async release(id: string): Promise<void> {
    this.held.delete(id);
    // Without its session the lock is gone already; a new session never held it.
    await this.client?.query(`SELECT pg_advisory_unlock(${KEY})`, [id]).catch(() => undefined);
  }

  async close(): Promise<void> {
    const client = await this.connecting?.catch(() => undefined);
    this.connecting = undefined;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The one session that holds this instance's upload locks and hears release requests; made on first use, again after a loss. */
  private session(): Promise<pg.Client> {
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = undefined;
      throw isDatabaseUnavailable(error) ? new ServiceError('DATABASE_UNAVAILABLE') : error;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: APPLICATION_NAME });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', ({ channel, payload }) => {
      if (channel === RELEASE_CHANNEL && payload) void this.held.get(payload)?.();
    });
    await client.connect();
    await client.query(`LISTEN ${RELEASE_CHANNEL}`);
    this.client = client;
    return client;
  }

  /** The session's locks ended with it: every request holding one is asked to stop writing. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.connecting = undefined;
    for (const release of this.held.values()) void release();
  }
}

class AdvisoryLock implements Lock {
  private readonly local: Lock;

  constructor(
    private readonly locker: AdvisoryLocker,
    private readonly id: string,
  ) {
    this.local = locker.local.newLock(id);
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.local.lock(signal, requestRelease);
    try {
      await this.locker.acquire(this.id, signal, requestRelease);
    } catch (error) {
      await this.local.unlock();
      throw error;
    }
  }

  async unlock(): Promise<void> {
    try {
      await this.locker.release(this.id);
    } finally {
      await this.local.unlock();
    }
  }
}
