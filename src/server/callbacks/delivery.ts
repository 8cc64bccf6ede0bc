import type { ServiceContext } from '../context';
import { callbackRequest, SIGNATURE_HEADER } from './payload';
import { postForm } from './post';
import { retryDelayMs } from './retrySchedule';
import { CallbackStore, type PendingCallback } from './store';

export interface CallbackDelivery {
  /** Cuts in-flight requests short (those tries do not count) and waits for them to settle. */
  stop(): Promise<void>;
}

/** A claimed row is re-offered this long after its request's own limit, should the process die. */
const CLAIM_MARGIN_MS = 5_000;
/** Floor for the wake-up timer, so a row that is due but not startable cannot make a busy loop. */
const MIN_WAKE_MS = 50;
/** setTimeout's largest delay. */
const MAX_WAKE_MS = 2 ** 31 - 1;

/**
 * Delivers the status callbacks `markProcessed` queues, at least once: due rows are read from
 * the database (so rows left by a previous run go out at start), at most `callbackConcurrency`
 * requests run at once and never two for one row, failures are retried on the backoff of
 * `retryDelayMs` and given up after `callbackMaxAttempts`. Log lines name the video, app,
 * attempt and HTTP status or error, never the URL, the Token or the secret.
 */
export function startCallbackDelivery(service: ServiceContext): CallbackDelivery {
  const { config, log } = service;
  const store = new CallbackStore(service.db);
  const inFlight = new Map<number, Promise<void>>();
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;

  async function deliver(row: PendingCallback): Promise<void> {
    const fields = { videoId: row.video_id, appId: row.app_id, videoStatus: row.video_status };
    const app = service.apps.get(row.app_id);
    if (!app?.callbackUrl) {
      // Nothing to retry: only a new APPS_FILE could change this, and it is read at start-up.
      const reason = app ? 'no callbackUrl' : 'app no longer in APPS_FILE';
      store.giveUp(row.id, reason, service.now());
      log.info(`callback not sent: ${reason}`, fields);
      return;
    }
    const startedAt = service.now();
    if (!store.claim(row.id, startedAt, startedAt + config.callbackTimeoutMs + CLAIM_MARGIN_MS)) return;
    const attempt = row.attempts + 1;
    const request = callbackRequest(app, row.video_id, row.video_status, startedAt);
    const outcome = await postForm(app.callbackUrl, request.body, { [SIGNATURE_HEADER]: request.signature }, config.callbackTimeoutMs, stopping.signal);
    const now = service.now();
    if (outcome.ok && outcome.status >= 200 && outcome.status <= 299) {
      store.delivered(row.id, now);
      log.info('callback delivered', { ...fields, attempt, httpStatus: outcome.status });
      return;
    }
    if (stopping.signal.aborted) {
      store.release(row.id, now);
      return;
    }
    const error = outcome.ok ? `HTTP ${outcome.status}` : outcome.error;
    if (attempt >= config.callbackMaxAttempts) {
      store.giveUp(row.id, error, now);
      log.error('callback given up', { ...fields, attempts: attempt, error });
      return;
    }
    const delay = retryDelayMs(attempt, config.callbackRetryBaseMs);
    store.retryAt(row.id, now + delay, error, now);
    log.warn('callback attempt failed', { ...fields, attempt, error, retryInMs: delay });
  }

  function start(row: PendingCallback): void {
    const work = deliver(row)
      .catch((error: unknown) => log.error('callback delivery crashed', { videoId: row.video_id, error: String(error) }))
      .finally(() => {
        inFlight.delete(row.id);
        pump();
      });
    inFlight.set(row.id, work);
  }

  function pump(): void {
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    timer = undefined;
    const free = config.callbackConcurrency - inFlight.size;
    if (free <= 0) return; // a finishing request pumps again
    // A row in flight is not due (its claim moved next_attempt_at), so it cannot be picked twice.
    for (const row of store.due(service.now(), free)) start(row);
    const next = store.nextAttemptAt();
    if (next === undefined) return;
    const wait = Math.min(Math.max(next - service.now(), MIN_WAKE_MS), MAX_WAKE_MS);
    timer = setTimeout(pump, wait);
    // The HTTP server keeps the process alive; a pending retry alone should not.
    timer.unref();
  }

  const onQueued = () => pump();
  service.signals.on('callbackQueued', onQueued);
  pump();

  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      service.signals.off('callbackQueued', onQueued);
      await Promise.all(inFlight.values());
    },
  };
}
