import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FailureCode } from '../../shared/resultCodes';
import type { ResumeState } from '../../shared/uploadPage';
import { textsFor } from './i18n';
import { stringTable } from '../../shared/i18n/tables';
import {
  askingNow,
  initialModel,
  reduce,
  STATE_KINDS,
  transitionsOf,
  UPLOADER_STATES,
  type Arrow,
  type ContentRefusal,
  type Effect,
  type FileLike,
  type HandleLike,
  type MachineSetup,
  type Model,
  type StateKind,
  type States,
  type UploadEvent,
} from './machine';
import { DIAGRAM_MARKERS, stateDiagram } from './stateDiagram';
import { RECORDER_STATES } from './recorder/transitions';

/** The machine's states with the recorder's registered, as they are once its chunk has loaded. */
const STATES: States = { ...UPLOADER_STATES, ...RECORDER_STATES };
const TRANSITIONS = transitionsOf(STATES);

const SETUP: MachineSetup = {
  videoId: 'video-1',
  maxFileSize: 2 * 1024 ** 3,
  limits: {},
  sources: ['file', 'camera', 'screen'],
  uploadWhileRecording: false,
  // Every failure is news, as once the quiet retries are spent ("machine: the retry policy" has those).
  retry: { delays: [], everyMs: 10_000 },
  texts: textsFor(stringTable('en', {})),
};
/** A page that takes MP4 and MOV of 5 s to 10 min, up to 1 MB. */
const LIMITED: MachineSetup = { ...SETUP, maxFileSize: 1_000_000, limits: { accept: ['mp4', 'mov'], minDuration: 5, maxDuration: 600 } };
/** `uploadWhileRecording: true`. */
const LIVE: MachineSetup = { ...SETUP, uploadWhileRecording: true };
const file = (name = 'clip.mp4', size = 1000, type = 'video/mp4'): FileLike => ({ name, size, type });
const CLIP = file();
const STORED: ResumeState = {
  uploadUrl: 'http://service.test/UploadWidget/tus/u-1',
  offset: 400,
  size: 1000,
  fileName: 'clip.mp4',
  fingerprint: 'print-of-clip.mp4',
};
const HANDLE: HandleLike = { name: 'clip.mp4' };
const INFO = { videoId: 'video-1', fileName: 'clip.mp4', fileSize: 1000 };
/** A recorded take, and the address of its upload sent while recording. */
const TAKE = file('recording.webm', 4000, 'video/webm');
/** What a recording stopped before the recorder's first chunk hands over. */
const EMPTY_TAKE = file('recording.webm', 0, 'video/webm');
const LIVE_URL = 'http://service.test/UploadWidget/files/live-1';

type Event = UploadEvent;
/** An event whose `attempt` is filled in from the model it is sent to: that of the running attempt. */
type Live = (model: Model) => Event;
type LiveEvent = Event | Live;

/** Runs the events in turn on a page set up as `setup`; the effects of all of them, in order. */
function runWith(setup: MachineSetup, model: Model, ...events: LiveEvent[]): { model: Model; effects: Effect[] } {
  const effects: Effect[] = [];
  let current = model;
  for (const event of events) {
    const step = reduce(current, typeof event === 'function' ? event(current) : event, setup, STATES);
    current = step.model;
    effects.push(...step.effects);
  }
  return { model: current, effects };
}
const run = (model: Model, ...events: LiveEvent[]) => runWith(SETUP, model, ...events);

const posts = (effects: Effect[]) => effects.flatMap((effect) => (effect.type === 'post' ? [effect.message] : []));
const ofType = <T extends Effect['type']>(effects: Effect[], type: T) =>
  effects.filter((effect): effect is Extract<Effect, { type: T }> => effect.type === type);

// Events of the running attempt, as the transport and the checks send them.
const checked =
  (print = 'print-of-clip.mp4'): Live =>
  (model) => ({ type: 'checked', attempt: model.attempt, print });
const progress =
  (sent: number): Live =>
  (model) => ({ type: 'progress', attempt: model.attempt, sent });
const succeeded: Live = (model) => ({ type: 'succeeded', attempt: model.attempt });
const refused =
  (code: FailureCode | undefined, requestId?: string): Live =>
  (model) => ({ type: 'refused', attempt: model.attempt, code, requestId });
/** The page at 127.0.0.1:8080 whose proxy does not pass the upload path on to the service at localhost:8080. */
const ORIGINS = { pageOrigin: 'http://127.0.0.1:8080', serviceOrigin: 'http://localhost:8080', uploadPath: '/UploadWidget/files/' };
const unreachable: Live = (model) => ({ type: 'unreachable', attempt: model.attempt, ...ORIGINS });
const networkError =
  (bytesUploaded: number, online = true): Live =>
  (model) => ({ type: 'networkError', attempt: model.attempt, bytesUploaded, online });

const ended =
  (take: FileLike, durationMs = 10_000): Live =>
  (model) => ({ type: 'recordingEnded', attempt: model.attempt, file: take, durationMs });
const liveStored: Live = (model) => ({ type: 'liveStored', attempt: model.attempt, uploadUrl: LIVE_URL, offset: 0 });
const recorded =
  (bytes: number, elapsedMs: number): Live =>
  (model) => ({ type: 'recorded', attempt: model.attempt, bytes, elapsedMs });

const idle = (stored: ResumeState | null = null) => initialModel<FileLike, HandleLike>(stored);
/** A file chosen, checked and on its way: state `uploading`. */
const uploading = (stored: ResumeState | null = null, chosen = CLIP) =>
  run(idle(stored), { type: 'choose', file: chosen }, checked(`print-of-${chosen.name}`)).model;

describe('machine: choosing a file', () => {
  it.each([
    ['an empty file', file('empty.mp4', 0), 'empty', '“empty.mp4” is empty. Choose a video file.'],
    ['a file that is not a video', file('notes.txt', 5, 'text/plain'), 'notVideo', '“notes.txt” is not a video file. Choose a video file.'],
    ['a file over the limit', file('big.mp4', 3 * 1024 ** 3), 'tooLarge', '“big.mp4” is larger than the limit of 2.0 GiB.'],
  ])('refuses %s before any check or request, says why and reports it with the refusal as its code', (_case, chosen, code, text) => {
    const { model, effects } = run(idle(), { type: 'choose', file: chosen });
    expect(model.state.kind).toBe('failed');
    expect(model.notice).toEqual({ tone: 'error', text });
    expect(effects).toEqual([
      {
        type: 'post',
        message: {
          type: 'failure',
          info: { videoId: 'video-1', reason: 'rejected', code, message: text, fileName: chosen.name, fileSize: chosen.size },
        },
      },
    ]);
  });

  it.each([
    ['notVideoContent', '“fake.mp4” does not contain a video in any format we know, whatever its name says. Choose a video file.'],
    ['unreadable', '“fake.mp4” could not be read. Choose it again or another file.'],
  ] as const)('refuses a file whose content check says %s, and starts nothing', (refusal, text) => {
    const { model, effects } = run(idle(), { type: 'choose', file: file('fake.mp4') }, (m) => ({
      type: 'checkFailed',
      attempt: m.attempt,
      refusal,
    }));
    expect(model.state.kind).toBe('failed');
    expect(model.notice?.text).toBe(text);
    expect(ofType(effects, 'start')).toEqual([]);
    expect(posts(effects)).toEqual([
      { type: 'failure', info: expect.objectContaining({ reason: 'rejected', code: refusal, fileName: 'fake.mp4', message: text }) },
    ]);
  });

  it('accepts a known video extension when the browser gives no type, and checks its content', () => {
    const { model, effects } = run(idle(), { type: 'choose', file: file('movie.mkv', 10, '') });
    expect(model.state.kind).toBe('checking');
    expect(effects).toEqual([{ type: 'check', attempt: 1, file: file('movie.mkv', 10, '') }]);
  });

  it('starts the upload once checked: forgets an older handle, tells the host it is busy, starts tus afresh', () => {
    const { model, effects } = run(idle(), { type: 'choose', file: CLIP }, checked());
    expect(model.state).toEqual({ kind: 'uploading', file: CLIP, sent: 0, allSent: false });
    expect(effects.slice(1)).toEqual([
      { type: 'forgetHandle' },
      { type: 'resetMeter' },
      { type: 'post', message: { type: 'uploading', busy: true } },
      { type: 'start', attempt: 2, file: CLIP, print: 'print-of-clip.mp4', resume: null },
    ]);
  });

  it("continues the service's upload when the same file is chosen, from its offset", () => {
    const { model, effects } = run(idle(STORED), { type: 'choose', file: CLIP }, checked());
    expect(model.state).toMatchObject({ kind: 'uploading', sent: 400 });
    expect(ofType(effects, 'start')[0]?.resume).toBe(STORED);
  });

  it.each([
    ['another name', file('other.mp4'), 'print-of-other.mp4'],
    ['other content under the same name', CLIP, 'another-print'],
  ])('asks before %s replaces the bytes the service holds; Keep it leaves all as it was', (_case, chosen, print) => {
    const asked = run(idle(STORED), { type: 'choose', file: chosen }, checked(print));
    expect(asked.model.state.kind).toBe('idle');
    expect(asked.model.question).toEqual({ kind: 'replace', file: chosen, print, handle: undefined });
    expect(ofType(asked.effects, 'start')).toEqual([]);
    const kept = run(asked.model, { type: 'answerSafe' });
    expect(kept.model).toMatchObject({ question: null, stored: STORED, state: { kind: 'idle' } });
    expect(kept.effects).toEqual([]);
  });

  it('starts afresh over the stored bytes only when told to', () => {
    const { model, effects } = run(idle(STORED), { type: 'choose', file: file('other.mp4') }, checked('print-of-other.mp4'), {
      type: 'answerRisky',
    });
    expect(model).toMatchObject({ question: null, state: { kind: 'uploading', sent: 0 } });
    expect(ofType(effects, 'start')[0]).toMatchObject({ file: file('other.mp4'), resume: null });
  });

  it('does not ask when the service holds nothing of the stored upload yet', () => {
    const { model } = run(idle({ ...STORED, offset: 0 }), { type: 'choose', file: file('other.mp4') }, checked('print-of-other.mp4'));
    expect(model.state.kind).toBe('uploading');
  });

  it('takes no file while one is being checked or sent', () => {
    for (const model of [run(idle(), { type: 'choose', file: CLIP }).model, uploading()]) {
      expect(reduce(model, { type: 'choose', file: file('other.mp4') }, SETUP)).toEqual({ model, effects: [] });
    }
  });
});

describe("machine: the page's restrictions", () => {
  const limited = (...events: LiveEvent[]) => runWith(LIMITED, idle(), { type: 'choose', file: CLIP }, ...events);

  it('refuses a file over the page’s maxFileSize before any check, naming that limit', () => {
    const { model, effects } = runWith(LIMITED, idle(), { type: 'choose', file: file('clip.mp4', 1_500_000) });
    expect(model.notice?.text).toBe('“clip.mp4” is larger than the limit of 976.6 KiB.');
    expect(posts(effects)).toEqual([{ type: 'failure', info: expect.objectContaining({ reason: 'rejected', code: 'tooLarge' }) }]);
  });

  // The checks themselves, and the values they find, are limits.test.ts's.
  it.each<[ContentRefusal, Record<string, string>, string]>([
    ['notAccepted', { container: 'WebM', accepted: 'MP4, MOV' }, '“clip.mp4” is in the WebM format; this site takes MP4, MOV only.'],
    ['tooShort', { duration: '4.5 s', min: '5 s' }, '“clip.mp4” is 4.5 s long; this site takes videos of at least 5 s.'],
    ['tooLong', { duration: '10 min 1 s', max: '10 min' }, '“clip.mp4” is 10 min 1 s long; this site takes videos of at most 10 min.'],
    [
      'durationUnknown',
      {},
      'The length of “clip.mp4” could not be read, and this site limits how long videos may be. Choose a file in another format, such as MP4.',
    ],
  ])('refuses a file the check finds %s: no upload starts, the host hears the refusal as its code', (refusal, values, text) => {
    const { model, effects } = limited((m) => ({ type: 'checkFailed', attempt: m.attempt, refusal, values }));
    expect(model.state.kind).toBe('failed');
    expect(model.notice).toEqual({ tone: 'error', text });
    expect(effects.filter((effect) => effect.type !== 'check')).toEqual([
      {
        type: 'post',
        message: {
          type: 'failure',
          info: { videoId: 'video-1', reason: 'rejected', code: refusal, message: text, fileName: 'clip.mp4', fileSize: 1000 },
        },
      },
    ]);
  });

  it('keeps maxDuration in the setup, for a recording to stop at', () => {
    expect(LIMITED.limits.maxDuration).toBe(600);
  });
});

describe('machine: an upload endpoint the page cannot reach', () => {
  it('fails at once with the origins and the settings named, and tells the host it is a setting to change (validation)', () => {
    const { model, effects } = run(uploading(), unreachable);
    const text =
      'Uploads cannot reach the video service: this page came from http://127.0.0.1:8080, but /UploadWidget/files/ there does not lead to the service, whose PUBLIC_URL is http://localhost:8080. The site owner can set serviceUrl to http://localhost:8080, or make http://127.0.0.1:8080 pass /UploadWidget/files/ on to the service.';
    expect(model.state.kind).toBe('failed');
    expect(model.notice).toEqual({ tone: 'error', text });
    expect(effects).toEqual([
      { type: 'releaseTransport' },
      { type: 'post', message: { type: 'uploading', busy: false } },
      { type: 'post', message: { type: 'failure', info: { ...INFO, reason: 'validation', code: 'unreachable', message: text } } },
    ]);
  });

  it('ignores the news from an abandoned attempt', () => {
    const cancelled = run(uploading(), { type: 'cancel' }).model;
    expect(reduce(cancelled, { type: 'unreachable', attempt: cancelled.attempt - 1, ...ORIGINS }, SETUP).effects).toEqual([]);
  });
});

describe('machine: sending', () => {
  it('shows each progress figure, measures it and passes it to the host', () => {
    const { model, effects } = run(uploading(), progress(250), progress(500));
    expect(model.state).toMatchObject({ kind: 'uploading', sent: 500 });
    expect(effects).toEqual([
      { type: 'measure', bytes: 250 },
      { type: 'reportProgress', info: { bytesUploaded: 250, bytesTotal: 1000 } },
      { type: 'measure', bytes: 500 },
      { type: 'reportProgress', info: { bytesUploaded: 500, bytesTotal: 1000 } },
    ]);
  });

  it('with every byte sent: the last figure at once, then finishing, once; repeats are no news', () => {
    const all = run(uploading(), progress(1000));
    expect(all.model.state).toMatchObject({ kind: 'finishing', sent: 1000, allSent: true });
    expect(all.effects.slice(1)).toEqual([
      { type: 'reportProgress', info: { bytesUploaded: 1000, bytesTotal: 1000 } },
      { type: 'flushProgress' },
      { type: 'post', message: { type: 'state', info: { state: 'finishing' } } },
    ]);
    expect(run(all.model, progress(1000)).effects).toEqual([{ type: 'measure', bytes: 1000 }]);
  });

  it('pauses and resumes, telling the host each time', () => {
    const paused = run(uploading(), progress(400), { type: 'pause' });
    expect(paused.model.state).toMatchObject({ kind: 'paused', sent: 400 });
    expect(paused.effects.slice(2)).toEqual([
      { type: 'pauseTransport' },
      { type: 'resetMeter' },
      { type: 'post', message: { type: 'uploading', busy: false } },
      { type: 'post', message: { type: 'state', info: { state: 'paused' } } },
    ]);
    const resumed = run(paused.model, { type: 'resume' });
    expect(resumed.model.state).toMatchObject({ kind: 'uploading', sent: 400 });
    expect(resumed.effects).toEqual([
      { type: 'post', message: { type: 'uploading', busy: true } },
      { type: 'post', message: { type: 'state', info: { state: 'resumed' } } },
      { type: 'resumeTransport' },
    ]);
  });

  it('a late figure while paused goes to the host but leaves the bar as it was', () => {
    const { model, effects } = run(uploading(), progress(400), { type: 'pause' }, progress(450));
    expect(model.state).toMatchObject({ kind: 'paused', sent: 400 });
    expect(ofType(effects, 'reportProgress').at(-1)?.info.bytesUploaded).toBe(450);
  });

  it('resumes into finishing once every byte was sent, without a second finishing', () => {
    const { model, effects } = run(uploading(), progress(1000), { type: 'pause' }, { type: 'resume' }, progress(1000));
    expect(model.state.kind).toBe('finishing');
    expect(posts(effects).filter((message) => message.type === 'state')).toHaveLength(3);
  });

  it('cancels back to the file choice, drops the transport, and ignores what it still reports', () => {
    const before = uploading();
    const { model, effects } = run(before, { type: 'cancel' });
    expect(model).toMatchObject({
      state: { kind: 'cancelled' },
      notice: { tone: 'info', text: 'Upload canceled. Choose the same file to continue, or another one.' },
    });
    expect(effects).toEqual([{ type: 'stopTransport' }, { type: 'post', message: { type: 'uploading', busy: false } }]);
    for (const late of [succeeded, progress(900), refused('107'), networkError(300)]) expect(run(model, late(before)).model).toBe(model);
  });

  it('keeps a cancelled upload: the same file chosen again continues from what the service holds', () => {
    const { model, effects } = run(
      uploading(),
      { type: 'stored', resume: STORED },
      { type: 'cancel' },
      { type: 'choose', file: CLIP },
      checked(),
    );
    expect(model.state).toMatchObject({ kind: 'uploading', sent: 400 });
    expect(ofType(effects, 'start').at(-1)?.resume).toEqual(STORED);
  });

  it('on the host closing the widget, stops sending and changes nothing else', () => {
    const model = uploading();
    expect(reduce(model, { type: 'hostClosing' }, SETUP)).toEqual({ model, effects: [{ type: 'pauseTransport' }] });
  });
});

describe('machine: outcomes', () => {
  it('on success: done, the host hears it with name and size, the handle and stored upload go, processing is asked about', () => {
    const { model, effects } = run(uploading(STORED), succeeded);
    expect(model).toMatchObject({ state: { kind: 'done', file: CLIP }, stored: null });
    expect(effects).toEqual([
      { type: 'forgetHandle' },
      { type: 'releaseTransport' },
      { type: 'post', message: { type: 'success', info: INFO } },
      { type: 'askProcessing', when: 'now' },
    ]);
  });

  it.each([
    ['107', 'The server refused the upload (code 107).'],
    ['116', 'This site has reached its limit of uploads for now. Wait a minute, then try again (code 116).'],
    [undefined, 'The server refused the upload.'],
  ] as const)('on a refusal (code %s): failed, says so, and reports a failure with the code', (code, text) => {
    const { model, effects } = run(uploading(), refused(code));
    expect(model).toMatchObject({ state: { kind: 'failed' }, notice: { tone: 'error', text } });
    expect(effects).toEqual([
      { type: 'releaseTransport' },
      { type: 'post', message: { type: 'uploading', busy: false } },
      { type: 'post', message: { type: 'failure', info: { ...INFO, reason: 'server', message: text, ...(code ? { code } : {}) } } },
    ]);
  });

  it('passes the id of the refused request on to the host, for its operator', () => {
    const { effects } = run(uploading(), refused('116', 'req-429'));
    expect(posts(effects)).toContainEqual({
      type: 'failure',
      info: expect.objectContaining({ reason: 'server', code: '116', requestId: 'req-429' }),
    });
  });

  it.each([
    [true, 'retrying'],
    [false, 'offline'],
  ] as const)('on a network failure (browser online: %s): %s, shows what the service confirmed, reports the outage', (online, waiting) => {
    const { model, effects } = run(uploading(), progress(700), networkError(300, online));
    expect(model).toMatchObject({ state: { kind: waiting, sent: 300 }, notice: { tone: 'error', text: SETUP.texts.networkError } });
    expect(posts(effects)).toEqual([
      { type: 'uploading', busy: false },
      { type: 'state', info: { state: waiting } },
      { type: 'error', info: { ...INFO, reason: 'network', message: SETUP.texts.networkError, bytesUploaded: 300 } },
    ]);
  });

  it('reports an outage once, however often it fails during it; progress ends the outage', () => {
    const during = run(uploading(), networkError(300), { type: 'resume' }, networkError(300, false));
    expect(during.model.notice).not.toBeNull();
    expect(posts(during.effects).filter((message) => message.type === 'error')).toHaveLength(1);
    expect(posts(during.effects).flatMap((message) => (message.type === 'state' ? [message.info.state] : []))).toEqual([
      'retrying',
      'resumed',
      'offline',
    ]);
    const after = run(during.model, { type: 'resume' }, progress(500), networkError(500));
    expect(after.model.notice).not.toBeNull();
    expect(posts(after.effects).filter((message) => message.type === 'error')).toHaveLength(1);
  });

  it('Try again (or the browser back online, or the timer) clears the notice and continues', () => {
    const { model, effects } = run(uploading(), networkError(300), { type: 'resume' });
    expect(model).toMatchObject({ notice: null, state: { kind: 'uploading', sent: 300 } });
    expect(effects.at(-1)).toEqual({ type: 'resumeTransport' });
  });

  it.each([
    [[5, 1], 1],
    [[6, 4], 4],
    [[undefined, 7], 7],
  ] as const)('follows processing after the upload (%j) and tells the host once it reaches %i', (statuses, final) => {
    let model = run(uploading(), succeeded).model;
    const effects: Effect[] = [];
    for (const status of statuses) {
      const step = reduce(model, { type: 'processing', status }, SETUP);
      model = step.model;
      effects.push(...step.effects);
    }
    expect(model.videoStatus).toBe(final);
    expect(effects).toEqual([
      { type: 'askProcessing', when: 'later' },
      { type: 'post', message: { type: 'processed', info: { videoId: 'video-1', status: final } } },
    ]);
  });

  it('keeps the last known status when the service cannot say', () => {
    const { model } = run(run(uploading(), succeeded).model, { type: 'processing', status: 5 }, { type: 'processing', status: undefined });
    expect(model.videoStatus).toBe(5);
  });
});

describe('machine: the retry policy', () => {
  /** Quiet retries after 0 and 1 s, then every 10 s. */
  const POLICY: MachineSetup = { ...SETUP, retry: { delays: [0, 1000], everyMs: 10_000 } };
  const sending = () => runWith(POLICY, idle(), { type: 'choose', file: CLIP }, checked()).model;
  const waits = (effects: Effect[]) => effects.filter((effect) => ['retryIn', 'watchOnline', 'giveUp'].includes(effect.type));

  it('tries again quietly after each delay, then tells the person and the host once, and tries every 10 s or when back online', () => {
    const first = runWith(POLICY, sending(), networkError(300));
    expect(first.model.state.kind).toBe('uploading');
    expect([posts(first.effects), waits(first.effects)]).toEqual([[], [{ type: 'retryIn', ms: 0 }]]);
    const again = runWith(POLICY, first.model, { type: 'retry' });
    expect(again.effects).toEqual([{ type: 'giveUp' }, { type: 'resumeTransport' }]);
    const second = runWith(POLICY, again.model, networkError(300));
    expect(waits(second.effects)).toEqual([{ type: 'retryIn', ms: 1000 }]);
    const news = runWith(POLICY, second.model, { type: 'retry' }, networkError(300));
    expect(news.model.state.kind).toBe('retrying');
    expect(posts(news.effects).map((message) => message.type)).toEqual(['uploading', 'state', 'error']);
    expect(waits(news.effects)).toEqual([{ type: 'giveUp' }, { type: 'retryIn', ms: 10_000 }, { type: 'watchOnline' }]);
    const back = runWith(POLICY, news.model, { type: 'retry' });
    expect(back.model.state.kind).toBe('uploading');
    expect(posts(back.effects)).toEqual([
      { type: 'uploading', busy: true },
      { type: 'state', info: { state: 'resumed' } },
    ]);
  });

  it('offline, tells at once and waits for the browser to be online, with no timer', () => {
    const { model, effects } = runWith(POLICY, sending(), networkError(300, false));
    expect(model.state.kind).toBe('offline');
    expect(waits(effects)).toEqual([{ type: 'watchOnline' }]);
    expect(runWith(POLICY, model, { type: 'retry' }).model.state.kind).toBe('uploading');
  });

  it('counts failures anew once the service confirms more bytes', () => {
    const failing = runWith(POLICY, sending(), networkError(300), { type: 'retry' }, networkError(300), { type: 'retry' }).model;
    const moved = runWith(POLICY, failing, { type: 'stored', resume: { ...STORED, offset: 600 } }, networkError(600));
    expect(moved.model.state.kind).toBe('uploading');
    expect(waits(moved.effects)).toEqual([{ type: 'retryIn', ms: 0 }]);
    // The same offset again (a resume's HEAD) is no progress.
    const stored = { type: 'stored', resume: { ...STORED, offset: 600 } } as const;
    const stuck = runWith(POLICY, moved.model, { type: 'retry' }, networkError(600), { type: 'retry' }, stored, networkError(600));
    expect(stuck.model.state.kind).toBe('retrying');
    expect(runWith(POLICY, failing, networkError(300)).model.state.kind).toBe('retrying');
  });

  it('a wait no longer wanted stops: Pause, Cancel or Try again end it, and a late retry changes nothing', () => {
    const quiet = runWith(POLICY, sending(), networkError(300)).model;
    const paused = runWith(POLICY, quiet, { type: 'pause' });
    expect(paused.effects[0]).toEqual({ type: 'giveUp' });
    expect(runWith(POLICY, paused.model, { type: 'retry' }).effects).toEqual([]);
    expect(runWith(POLICY, quiet, { type: 'cancel' }).effects[0]).toEqual({ type: 'giveUp' });
    const outage = runWith({ ...POLICY, retry: { delays: [], everyMs: 10_000 } }, sending(), networkError(300)).model;
    const tried = runWith(POLICY, outage, { type: 'resume' });
    expect(tried.effects[0]).toEqual({ type: 'giveUp' });
    expect(runWith(POLICY, tried.model, { type: 'retry' }).effects).toEqual([]);
  });

  it('the upload sent while recording follows the same policy, quietly first', () => {
    const LIVE_POLICY: MachineSetup = { ...LIVE, retry: POLICY.retry };
    const recording = runWith(
      LIVE_POLICY,
      idle(),
      { type: 'record', source: 'camera' },
      { type: 'sourceReady' },
      { type: 'startCountdown' },
      { type: 'tick' },
      { type: 'tick' },
      { type: 'tick' },
      liveStored,
    ).model;
    const quiet = runWith(LIVE_POLICY, recording, networkError(300));
    expect([quiet.model.liveUpload?.waiting, quiet.model.notice, waits(quiet.effects)]).toEqual([
      false,
      null,
      [{ type: 'retryIn', ms: 0 }],
    ]);
    expect(runWith(LIVE_POLICY, quiet.model, { type: 'retry' }).effects).toEqual([{ type: 'giveUp' }, { type: 'resumeTransport' }]);
    const news = runWith(LIVE_POLICY, quiet.model, { type: 'retry' }, networkError(300), { type: 'retry' }, networkError(300));
    expect(news.model.liveUpload?.waiting).toBe(true);
    expect(waits(news.effects).slice(-2)).toEqual([{ type: 'retryIn', ms: 10_000 }, { type: 'watchOnline' }]);
  });
});

describe('machine: the stored upload and the kept handle', () => {
  it('discards only after asking, then offers nothing to resume', () => {
    const asked = run(idle(STORED), { type: 'askDiscard' });
    expect(askingNow(asked.model)).toEqual({ kind: 'discard' });
    expect(asked.effects).toEqual([]);
    const sent = run(asked.model, { type: 'answerRisky' });
    expect(sent.effects).toEqual([{ type: 'discard', uploadUrl: STORED.uploadUrl }]);
    const { model, effects } = run(sent.model, { type: 'discarded', ok: true });
    expect(model).toMatchObject({
      stored: null,
      keptHandle: undefined,
      question: null,
      notice: { tone: 'info', text: 'The earlier upload was discarded.' },
    });
    expect(effects).toEqual([{ type: 'forgetHandle' }]);
  });

  it('keeps the stored upload when the service could not discard it', () => {
    const { model } = run(idle(STORED), { type: 'askDiscard' }, { type: 'answerRisky' }, { type: 'discarded', ok: false });
    expect(model).toMatchObject({
      stored: STORED,
      notice: { tone: 'error', text: 'The earlier upload could not be discarded. Try again later.' },
    });
  });

  it("offers the kept handle of the stored upload, reopens it, and continues from the service's offset", () => {
    const found = run(idle(STORED), { type: 'handleFound', handle: HANDLE, stored: STORED });
    expect(found.model.keptHandle).toBe(HANDLE);
    expect(run(found.model, { type: 'continueKept' }).effects).toEqual([{ type: 'reopen', handle: HANDLE }]);
    const { model, effects } = run(found.model, { type: 'reopened', handle: HANDLE, file: CLIP }, checked());
    expect(model).toMatchObject({ keptHandle: undefined, state: { kind: 'uploading', sent: 400 } });
    expect(effects).toContainEqual({ type: 'saveHandle', handle: HANDLE });
    expect(ofType(effects, 'start')[0]?.resume).toBe(STORED);
  });

  it('says so when the browser does not let it read the file again, and drops the offer', () => {
    const { model } = run(
      idle(STORED),
      { type: 'handleFound', handle: HANDLE, stored: STORED },
      { type: 'reopened', handle: HANDLE, file: undefined },
    );
    expect(model).toMatchObject({
      keptHandle: undefined,
      state: { kind: 'idle' },
      notice: { text: '“clip.mp4” could not be opened again. Choose it with the button below.' },
    });
  });

  it.each([
    ['another file', { name: 'other.mp4' }, STORED],
    ['an upload the page no longer holds', HANDLE, { ...STORED }],
  ])('offers no handle of %s', (_case, handle, stored) => {
    expect(run(idle(STORED), { type: 'handleFound', handle, stored }).model.keptHandle).toBeUndefined();
  });

  it('keeps the handle of a dropped file while it uploads and forgets it once uploaded', () => {
    const { effects } = run(idle(), { type: 'choose', file: CLIP, handle: HANDLE }, checked(), succeeded);
    expect(effects.filter((effect) => effect.type === 'saveHandle' || effect.type === 'forgetHandle')).toEqual([
      { type: 'saveHandle', handle: HANDLE },
      { type: 'forgetHandle' },
    ]);
  });
});

describe('machine: closing', () => {
  it('closes at once when nothing moves', () => {
    for (const model of [idle(), run(uploading(), { type: 'pause' }).model, run(uploading(), succeeded).model]) {
      expect(run(model, { type: 'closeRequested' }).effects).toEqual([{ type: 'post', message: { type: 'close' } }]);
    }
  });

  it('asks first while bytes move; Escape answers with the safe choice, and only Stop and close stops', () => {
    const asked = run(uploading(), progress(370), { type: 'escape' });
    expect(askingNow(asked.model)).toEqual({ kind: 'close' });
    expect(asked.effects.some((effect) => effect.type === 'post' && effect.message.type === 'close')).toBe(false);
    const kept = run(asked.model, { type: 'escape' });
    expect(kept.model).toMatchObject({ question: null, state: { kind: 'uploading' } });
    expect(kept.effects).toEqual([]);
    const stopped = run(asked.model, { type: 'answerRisky' });
    expect(stopped.model).toMatchObject({ question: null, state: { kind: 'paused' } });
    expect(stopped.effects).toEqual([
      { type: 'pauseTransport' },
      { type: 'resetMeter' },
      { type: 'post', message: { type: 'uploading', busy: false } },
      { type: 'post', message: { type: 'state', info: { state: 'paused' } } },
      { type: 'post', message: { type: 'close' } },
    ]);
  });

  it('a close question is moot once nothing moves, and back if bytes move again', () => {
    const asked = run(uploading(), { type: 'closeRequested' }).model;
    const failed = run(asked, networkError(0)).model;
    expect(askingNow(failed)).toBeNull();
    expect(run(failed, { type: 'escape' }).effects).toEqual([{ type: 'post', message: { type: 'close' } }]);
    expect(askingNow(run(failed, { type: 'resume' }).model)).toEqual({ kind: 'close' });
  });
});

describe('machine: recording', () => {
  /** Camera allowed, counted down and recording, with the given setup. */
  const recordingWith = (setup: MachineSetup) =>
    runWith(
      setup,
      idle(),
      { type: 'record', source: 'camera' },
      { type: 'sourceReady' },
      { type: 'startCountdown' },
      { type: 'tick' },
      { type: 'tick' },
      { type: 'tick' },
    );

  it('asks for the camera, shows its picture, counts 3-2-1, then records with elapsed time and size', () => {
    const asked = run(idle(), { type: 'record', source: 'camera' });
    expect(asked.model.state).toEqual({ kind: 'permission', source: 'camera' });
    expect(asked.effects).toEqual([{ type: 'openSource', source: 'camera' }]);
    const counting = run(asked.model, { type: 'sourceReady' }, { type: 'startCountdown' });
    expect(counting.model.state).toEqual({ kind: 'countdown', source: 'camera', left: 3 });
    expect(ofType(counting.effects, 'countdown')).toHaveLength(1);
    const two = run(counting.model, { type: 'tick' });
    expect(two.model.state).toMatchObject({ kind: 'countdown', left: 2 });
    const started = run(two.model, { type: 'tick' }, { type: 'tick' });
    expect(started.model.state).toEqual({ kind: 'recording', source: 'camera', elapsedMs: 0, bytes: 0, stopping: false });
    expect(ofType(started.effects, 'startRecorder')).toEqual([
      { type: 'startRecorder', attempt: started.model.attempt, uploadWhileRecording: false },
    ]);
    expect(run(started.model, recorded(250_000, 2000)).model.state).toMatchObject({ bytes: 250_000, elapsedMs: 2000 });
  });

  it('stops, reviews the take, and uploads it as a chosen file when nothing was sent while recording', () => {
    const stopping = run(recordingWith(SETUP).model, { type: 'stopRecording', reason: 'stop' });
    expect(stopping.model.state).toMatchObject({ kind: 'recording', stopping: true });
    expect(stopping.effects).toEqual([{ type: 'stopRecorder' }]);
    const review = run(stopping.model, ended(TAKE, 9500));
    expect(review.model.state).toEqual({ kind: 'review', source: 'camera', file: TAKE, durationMs: 9500 });
    const kept = run(review.model, { type: 'keep' });
    expect(kept.model.state).toMatchObject({ kind: 'checking', file: TAKE });
    expect(kept.effects).toEqual([{ type: 'closeSource' }, { type: 'check', attempt: kept.model.attempt, file: TAKE }]);
  });

  it('with uploadWhileRecording, uploads while recording; Upload sends the rest and declares the length', () => {
    const started = recordingWith(LIVE);
    expect(ofType(started.effects, 'startRecorder')).toEqual([
      { type: 'startRecorder', attempt: started.model.attempt, uploadWhileRecording: true },
    ]);
    const sending = runWith(LIVE, started.model, liveStored, progress(3000), { type: 'stopRecording', reason: 'stop' }, ended(TAKE));
    expect(sending.model.liveUpload).toMatchObject({ url: LIVE_URL, sent: 3000, waiting: false });
    expect(posts(sending.effects), 'the host hears nothing before the take is kept').toEqual([]);
    const kept = run(sending.model, { type: 'keep' });
    expect(kept.model.state).toEqual({ kind: 'uploading', file: TAKE, sent: 3000, allSent: false });
    expect(kept.model.liveUpload).toBeNull();
    expect(kept.effects.map((effect) => effect.type)).toEqual(['closeSource', 'resetMeter', 'post', 'endLive']);
    const done = run(kept.model, progress(4000), succeeded);
    expect(done.model.state).toEqual({ kind: 'done', file: TAKE });
    expect(posts(done.effects)).toContainEqual({
      type: 'success',
      info: { videoId: 'video-1', fileName: 'recording.webm', fileSize: 4000 },
    });
  });

  it('keeps recording through a network failure: the upload waits, continues on resume, and Upload then retries', () => {
    const cut = runWith(LIVE, recordingWith(LIVE).model, liveStored, progress(1000), networkError(800));
    expect(cut.model.state.kind).toBe('recording');
    expect(cut.model.liveUpload).toMatchObject({ sent: 800, waiting: true });
    expect(cut.model.notice).toEqual({ tone: 'error', text: SETUP.texts.networkError });
    const back = run(cut.model, { type: 'resume' });
    expect(back.effects).toEqual([{ type: 'giveUp' }, { type: 'resumeTransport' }]);
    expect(back.model.liveUpload?.waiting).toBe(false);
    const keptOffline = run(cut.model, { type: 'stopRecording', reason: 'stop' }, ended(TAKE), { type: 'keep' });
    expect(keptOffline.model.state).toMatchObject({ kind: 'retrying', sent: 800 });
    expect(ofType(keptOffline.effects, 'endLive')).toHaveLength(1);
  });

  it('Retake deletes what was sent, goes back to the picture, and ignores the old recording', () => {
    const review = runWith(LIVE, recordingWith(LIVE).model, liveStored, { type: 'stopRecording', reason: 'stop' }, ended(TAKE));
    const oldAttempt = review.model.attempt;
    const retake = run(review.model, { type: 'retake' });
    expect(retake.model.state).toEqual({ kind: 'preview', source: 'camera' });
    expect(retake.effects).toEqual([{ type: 'dropLive', uploadUrl: LIVE_URL }]);
    expect(retake.model.liveUpload).toBeNull();
    const stale = run(retake.model, { type: 'progress', attempt: oldAttempt, sent: 4000 });
    expect(stale.model).toEqual(retake.model);
  });

  it('has no take when it stopped before its first chunk: back to the choice, saying so, the upload deleted', () => {
    const stopped = runWith(LIVE, recordingWith(LIVE).model, liveStored, { type: 'stopRecording', reason: 'ended' }, ended(EMPTY_TAKE, 0));
    expect(stopped.model.state).toEqual({ kind: 'idle' });
    expect(stopped.model.notice).toEqual({ tone: 'error', text: SETUP.texts.nothingRecorded });
    expect(stopped.model.liveUpload).toBeNull();
    expect(stopped.effects.slice(-2)).toEqual([{ type: 'closeSource' }, { type: 'dropLive', uploadUrl: LIVE_URL }]);
  });

  it('Cancel leaves recording for the file choice, letting the camera go and dropping the upload', () => {
    const cancelled = runWith(LIVE, recordingWith(LIVE).model, liveStored, { type: 'cancelRecording' });
    expect(cancelled.model.state).toEqual({ kind: 'idle' });
    expect(cancelled.effects).toEqual([{ type: 'closeSource' }, { type: 'dropLive', uploadUrl: LIVE_URL }]);
  });

  it.each([
    ['camera', 'denied', SETUP.texts.cameraDenied],
    ['screen', 'denied', SETUP.texts.screenDenied],
    ['camera', 'noDevice', SETUP.texts.noCamera],
    ['camera', 'failed', SETUP.texts.recordFailed],
  ] as const)('%s %s: says so, and the file choice is still there', (source, failure, text) => {
    const refused = run(idle(), { type: 'record', source }, { type: 'sourceFailed', failure });
    expect(refused.model.state).toEqual({ kind: 'idle' });
    expect(refused.model.notice).toEqual({ tone: 'error', text });
    expect(run(refused.model, { type: 'choose', file: CLIP }).model.state.kind).toBe('checking');
  });

  it('the page hidden or the share ended: stops and keeps what was recorded, saying why', () => {
    const hidden = run(recordingWith(SETUP).model, { type: 'stopRecording', reason: 'hidden' });
    expect(hidden.effects).toEqual([{ type: 'stopRecorder' }]);
    expect(hidden.model.notice).toEqual({ tone: 'info', text: SETUP.texts.recordingCut });
    expect(run(hidden.model, ended(TAKE)).model.state.kind).toBe('review');
    const beforeStart = run(
      idle(),
      { type: 'record', source: 'screen' },
      { type: 'sourceReady' },
      { type: 'stopRecording', reason: 'ended' },
    );
    expect(beforeStart.model.state).toEqual({ kind: 'idle' });
    expect(beforeStart.effects.at(-1)).toEqual({ type: 'closeSource' });
  });

  it('offers recording only from the sources configured', () => {
    const fileOnly: MachineSetup = { ...SETUP, sources: ['file'] };
    expect(runWith(fileOnly, idle(), { type: 'record', source: 'camera' }).model.state).toEqual({ kind: 'idle' });
    const cameraOnly: MachineSetup = { ...SETUP, sources: ['camera'] };
    expect(runWith(cameraOnly, idle(), { type: 'record', source: 'screen' }).model.state).toEqual({ kind: 'idle' });
  });

  it('record asks for the recorder; until its states are registered, its events change nothing', () => {
    const asking = reduce(idle(), { type: 'record', source: 'camera' }, SETUP);
    expect(asking.model.state).toEqual({ kind: 'permission', source: 'camera' });
    expect(asking.effects).toEqual([{ type: 'openSource', source: 'camera' }]);
    expect(reduce(asking.model, { type: 'sourceReady' }, SETUP)).toEqual({ model: asking.model, effects: [] });
    expect(reduce(asking.model, { type: 'sourceReady' }, SETUP, STATES).model.state.kind).toBe('preview');
  });
});

describe('machine: the transition table', () => {
  /** Models in every state, with and without a stored upload, questions and a kept handle. */
  function samples(): Model[] {
    const other = file('other.mp4');
    const checking = (stored: ResumeState | null) => run(idle(stored), { type: 'choose', file: CLIP }).model;
    const models = [
      idle(),
      idle(STORED),
      run(idle(STORED), { type: 'handleFound', handle: HANDLE, stored: STORED }).model,
      run(idle(STORED), { type: 'choose', file: other }, checked('print-of-other.mp4')).model,
      run(idle(STORED), { type: 'askDiscard' }).model,
      run(idle(), { type: 'choose', file: file('empty.mp4', 0) }).model,
      checking(null),
      checking(STORED),
      run(idle(STORED), { type: 'choose', file: other }).model,
    ];
    for (const sending of [uploading(), uploading(STORED), run(uploading(), progress(1000)).model]) {
      models.push(sending, run(sending, { type: 'closeRequested' }).model, run(sending, { type: 'pause' }).model);
      models.push(
        run(sending, networkError(300)).model,
        run(sending, networkError(300, false)).model,
        run(sending, { type: 'cancel' }).model,
      );
      models.push(run(sending, refused('107')).model, run(sending, succeeded).model, run(sending, unreachable).model);
    }
    for (const setup of [SETUP, LIVE]) {
      const step = (model: Model, ...events: LiveEvent[]) => runWith(setup, model, ...events).model;
      const permission = step(idle(), { type: 'record', source: 'camera' });
      const preview = step(permission, { type: 'sourceReady' });
      const countdown = step(preview, { type: 'startCountdown' });
      const recording = step(countdown, { type: 'tick' }, { type: 'tick' }, { type: 'tick' });
      const review = step(recording, { type: 'stopRecording', reason: 'stop' }, ended(TAKE));
      models.push(permission, preview, countdown, step(countdown, { type: 'tick' }, { type: 'tick' }), recording, review);
      models.push(step(recording, { type: 'stopRecording', reason: 'stop' }), step(review, networkError(300)));
    }
    return models;
  }

  /** Every kind of event, with the data that can lead to each target; `attempt` is the model's own. */
  function events(model: Model): Event[] {
    const { attempt } = model;
    return [
      { type: 'choose', file: CLIP },
      { type: 'choose', file: file('big.mp4', 3 * 1024 ** 3) },
      { type: 'checked', attempt, print: 'print-of-clip.mp4' },
      { type: 'checked', attempt, print: 'print-of-other.mp4' },
      { type: 'checkFailed', attempt, refusal: 'notVideoContent' },
      { type: 'stored', resume: STORED },
      { type: 'progress', attempt, sent: 500 },
      { type: 'progress', attempt, sent: 1000 },
      { type: 'succeeded', attempt },
      { type: 'refused', attempt, code: '107' },
      { type: 'unreachable', attempt, ...ORIGINS },
      { type: 'networkError', attempt, bytesUploaded: 300, online: true },
      { type: 'networkError', attempt, bytesUploaded: 300, online: false },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'cancel' },
      { type: 'closeRequested' },
      { type: 'hostClosing' },
      { type: 'escape' },
      { type: 'askDiscard' },
      { type: 'answerSafe' },
      { type: 'answerRisky' },
      { type: 'discarded', ok: true },
      { type: 'discarded', ok: false },
      { type: 'continueKept' },
      { type: 'reopened', handle: HANDLE, file: CLIP },
      { type: 'reopened', handle: HANDLE, file: file('clip.mp4', 0) },
      { type: 'reopened', handle: HANDLE, file: undefined },
      { type: 'handleFound', handle: HANDLE, stored: STORED },
      { type: 'processing', status: 1 },
      { type: 'record', source: 'camera' },
      { type: 'sourceReady' },
      { type: 'sourceFailed', failure: 'denied' },
      { type: 'startCountdown' },
      { type: 'tick' },
      { type: 'recorded', attempt, bytes: 500, elapsedMs: 1000 },
      { type: 'stopRecording', reason: 'stop' },
      { type: 'stopRecording', reason: 'ended' },
      { type: 'recordingEnded', attempt, file: TAKE, durationMs: 10_000 },
      { type: 'recordingEnded', attempt, file: EMPTY_TAKE, durationMs: 0 },
      { type: 'keep' },
      { type: 'retake' },
      { type: 'cancelRecording' },
      { type: 'liveStored', attempt, uploadUrl: LIVE_URL, offset: 0 },
      { type: 'retry' },
    ];
  }

  const edge = (from: StateKind, on: string, to: StateKind) => `${from} --${on}--> ${to}`;

  it('lists exactly the changes of state reduce makes', () => {
    const made = new Set<string>();
    for (const model of samples()) {
      for (const event of events(model)) {
        const next = reduce(model, event, LIMITED, STATES).model.state.kind;
        if (next !== model.state.kind) made.add(edge(model.state.kind, event.type, next));
      }
    }
    const listed = new Set(
      TRANSITIONS.flatMap(({ from, on, to }) => from.flatMap((source) => to.map((target) => edge(source, on, target)))),
    );
    expect([...made].sort()).toEqual([...listed].sort());
  });

  it('walks the table: each arrow leads only to the states it declares, and to each of them', () => {
    const declared = new Set(TRANSITIONS.map(({ from, on, to }) => edge(from[0]!, on, to[0]!)));
    const taken = new Set<string>();
    const strays: string[] = [];
    for (const model of samples()) {
      const from = model.state.kind;
      for (const event of events(model)) {
        const arrow = STATES[from]?.[event.type] as Arrow<StateKind, Event['type']> | undefined;
        // Run the arrow itself, not reduce, which would drop a step to a state not declared.
        const next = arrow?.run(model, event as never, LIMITED).model.state.kind;
        if (next === undefined || next === from) continue;
        if (arrow?.to?.[next]) taken.add(edge(from, event.type, next));
        else strays.push(edge(from, event.type, next));
      }
    }
    expect(strays).toEqual([]);
    expect([...declared].filter((one) => !taken.has(one))).toEqual([]);
  });

  it('takes no step to a state the arrow does not declare, and the events every state shares keep the state', () => {
    const waiting = run(uploading(), networkError(300)).model;
    // An upload waiting for the network cannot start a new file, whatever question is open.
    const asked = { ...waiting, question: { kind: 'replace' as const, file: CLIP, print: 'p', handle: undefined } };
    expect(reduce(asked, { type: 'answerRisky' }, SETUP, STATES)).toEqual({ model: asked, effects: [] });
    expect(
      reduce(
        run(idle(STORED), { type: 'choose', file: file('other.mp4') }, checked('print-of-other.mp4')).model,
        { type: 'answerRisky' },
        SETUP,
        STATES,
      ).model.state.kind,
    ).toBe('uploading');
  });

  it('reaches every state', () => {
    const reached = new Set(TRANSITIONS.flatMap(({ to }) => to));
    expect(STATE_KINDS.filter((kind) => kind !== 'idle' && !reached.has(kind))).toEqual([]);
  });

  it('is the diagram in docs/widget.md (npx tsx scripts/widgetStates.ts redraws it)', () => {
    const doc = readFileSync(new URL('../../../docs/widget.md', import.meta.url), 'utf8');
    const drawn = doc.slice(doc.indexOf(DIAGRAM_MARKERS.begin) + DIAGRAM_MARKERS.begin.length, doc.indexOf(DIAGRAM_MARKERS.end)).trim();
    expect(drawn).toBe(stateDiagram(TRANSITIONS));
  });
});
