import type { ServiceContext } from '../context';
import { systemResolver } from '../net/vettedHost';
import { callbackRequest, SIGNATURE_HEADER } from './payload';
import { postForm } from './post';
import { retryDelayMs } from './retrySchedule';
import type { PendingCallback } from '../storage/callbacks';
import { callbackAddressPolicy, vetCallbackUrl, type CallbackTarget } from './target';

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
 * `retryDelayMs` and given up after `callbackMaxAttempts`. A callbackUrl whose host resolves to
 * an address `callbackUrlAllowPrivate` refuses is given up at once. Log lines name the video, app,
 * attempt and HTTP status or error, never the URL, the Token or the secret.
 */
export function startCallbackDelivery(service: ServiceContext): CallbackDelivery {
  const { config, log } = service;
  const policy = callbackAddressPolicy(config);
  const store = service.stores.callbacks;
  const inFlight = new Map<number, Promise<void>>();
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;

  async function deliver(row: PendingCallback): Promise<void> {
    const fields = { videoId: row.videoId, appId: row.appId, videoStatus: row.videoStatus };
    const counted = { app_id: row.appId };
    const app = service.apps.get(row.appId);
    if (!app?.callbackUrl) {
      // Nothing to retry: the app left APPS_FILE (re-read live) or has no callbackUrl; a later edit starts no old callback again.
      const reason = app ? 'no callbackUrl' : 'app no longer in APPS_FILE';
      await store.giveUp(row.id, reason, service.now());
      log.info(`callback not sent: ${reason}`, fields);
      return;
    }
    const startedAt = service.now();
    if (!(await store.claim(row.id, startedAt, startedAt + config.callbackTimeoutMs + CLAIM_MARGIN_MS))) return;
    const attempt = row.attempts + 1;
    const vetted = await vetCallbackUrl(app.callbackUrl, policy, systemResolver);
    // The claim covers the request's limit plus CLAIM_MARGIN_MS: after a slower lookup the request
    // could outlive it, and another instance could send the same callback meanwhile.
    const target: CallbackTarget =
      vetted.ok && service.now() - startedAt > CLAIM_MARGIN_MS
        ? { ok: false, retry: true, error: 'the callbackUrl lookup took too long' }
        : vetted;
    if (!target.ok && !target.retry) {
      await store.giveUp(row.id, target.error, service.now());
      service.metrics.callbacksGivenUp.inc(counted);
      // The log names the reason, never the URL or the address, as for every callback line.
      log.error('callback refused by the address policy', { ...fields, error: target.error });
      return;
    }
    const request = callbackRequest(app, row.videoId, row.videoStatus, startedAt);
    const outcome = target.ok
      ? await postForm(
          app.callbackUrl,
          request.body,
          { [SIGNATURE_HEADER]: request.signature },
          config.callbackTimeoutMs,
          stopping.signal,
          target.lookup,
        )
      : target;
    const now = service.now();
    if (outcome.ok && outcome.status >= 200 && outcome.status <= 299) {
      await store.delivered(row.id, now);
      service.metrics.callbacksSent.inc(counted);
      log.info('callback delivered', { ...fields, attempt, httpStatus: outcome.status });
      return;
    }
    if (stopping.signal.aborted) {
      await store.release(row.id, now);
      return;
    }
    const error = outcome.ok ? `HTTP ${outcome.status}` : outcome.error;
    service.metrics.callbacksFailed.inc(counted);
    if (attempt >= config.callbackMaxAttempts) {
      await store.giveUp(row.id, error, now);
      service.metrics.callbacksGivenUp.inc(counted);
      log.error('callback given up', { ...fields, attempts: attempt, error });
      return;
    }
    const delay = retryDelayMs(attempt, config.callbackRetryBaseMs);
    await store.retryAt(row.id, now + delay, error, now);
    log.warn('callback attempt failed', { ...fields, attempt, error, retryInMs: delay });
  }

  function start(row: PendingCallback): void {
    const work = deliver(row)
      .catch((error: unknown) => {
        if (!service.outages.answer(error)) log.error('callback delivery crashed', { videoId: row.videoId, error: String(error) });
      })
      .finally(() => {
        inFlight.delete(row.id);
        pump();
      });
    inFlight.set(row.id, work);
  }

  /** One pass at a time; a pump asked for meanwhile runs once the current one ends. */
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;
  function pump(): void {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = pumpOnce()
      // A lost database or a full disk is one line per outage (Outages), not one per pass.
      .catch((error: unknown) => {
        if (!service.outages.answer(error)) log.error('callback queue could not be read', { error: String(error) });
      })
      .finally(() => {
        pumping = undefined;
        if (pumpAgain) {
          pumpAgain = false;
          pump();
        }
      });
  }

  async function pumpOnce(): Promise<void> {
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    timer = undefined;
    const free = config.callbackConcurrency - inFlight.size;
    if (free <= 0) return; // a finishing request pumps again
    // A row in flight is skipped until its claim has moved next_attempt_at.
    for (const row of await store.due(service.now(), free + inFlight.size)) {
      if (inFlight.size >= config.callbackConcurrency) break;
      if (!inFlight.has(row.id)) start(row);
    }
    const next = await store.nextAttemptAt();
    if (next === undefined || stopping.signal.aborted) return;
    const wait = Math.min(Math.max(next - service.now(), MIN_WAKE_MS), MAX_WAKE_MS);
    timer = setTimeout(pump, wait);
    // The HTTP server keeps the process alive; a pending retry alone should not.
    timer.unref();
  }

  /**
   * `markProcessed` announces a callback only once its transaction has committed (afterCommit),
   * so the row is there to read; a rolled-back step announces nothing. Announcements in one
   * turn of the event loop make one pump.
   */
  let pumpScheduled = false;
  const onQueued = () => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(() => {
      pumpScheduled = false;
      pump();
    });
  };
  service.signals.on('callbackQueued', onQueued);
  pump();

  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      service.signals.off('callbackQueued', onQueued);
      await pumping;
      await Promise.all(inFlight.values());
    },
  };
}
