import { retryFailedStep } from '../processing/pipeline';
import type { Job } from '../storage/jobs';
import { VideoStatus } from '../../shared/videoStatus';
import { CliError } from './cliError';
import type { Command } from './command';
import { withServiceData } from './openData';

const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const satisfies readonly Job['state'][];

/** `5 (WaitingForTranscoding)`: the spec's number with its name. */
function statusText(status: number | undefined): string {
  const name = Object.entries(VideoStatus).find(([, value]) => value === status)?.[0];
  return name ? `${status} (${name})` : String(status);
}

const iso = (ms: number) => new Date(ms).toISOString();

function jobLine(job: Job): string {
  const error = job.lastError ? `  ${job.lastError}` : '';
  return `${job.id}  ${job.videoId}  ${job.kind}  ${job.state}  attempts ${job.attempts}  updated ${iso(job.updatedAt)}${error}`;
}

export const dataCommands: Command[] = [
  {
    name: 'videos show',
    usage: 'videos show <videoId>',
    summary: 'a video as the service stores it, with its processing jobs',
    positionals: ['videoId'],
    run: async ({ env, out, positionals: [videoId] }) => {
      await withServiceData(env, async (stores) => {
        const video = await stores.videos.get(videoId!);
        if (!video) throw new CliError('refused', `no video "${videoId}"`);
        const jobs = await stores.jobs.forVideo(video.id);
        const { status, createdAt, updatedAt, ...rest } = video;
        const shown = { ...rest, status: statusText(status), createdAt: iso(createdAt), updatedAt: iso(updatedAt) };
        out(
          JSON.stringify(
            { video: shown, jobs: jobs.map((job) => ({ ...job, createdAt: iso(job.createdAt), updatedAt: iso(job.updatedAt) })) },
            null,
            2,
          ),
        );
      });
    },
  },
  {
    name: 'jobs list',
    usage: `jobs list [--state ${JOB_STATES.join('|')}] [--limit 50]`,
    summary: 'processing jobs, newest first',
    options: { state: { type: 'string' }, limit: { type: 'string', default: '50' } },
    run: async ({ env, out, values }) => {
      const state = values.state as string | undefined;
      if (state !== undefined && !(JOB_STATES as readonly string[]).includes(state)) {
        throw new CliError('usage', `--state must be one of ${JOB_STATES.join(', ')}, got "${state}"`);
      }
      const limit = String(values.limit);
      if (!/^\d{1,5}$/.test(limit) || Number(limit) === 0)
        throw new CliError('usage', `--limit must be a whole number from 1 to 99999, got "${limit}"`);
      await withServiceData(env, async (stores) => {
        const jobs = await stores.jobs.list({ state: state as Job['state'] | undefined, limit: Number(limit) });
        if (jobs.length === 0) out('no jobs');
        for (const job of jobs) out(jobLine(job));
      });
    },
  },
  {
    name: 'jobs retry',
    usage: 'jobs retry <videoId>',
    summary: 'process again a video whose download (4) or transcode (7) failed',
    positionals: ['videoId'],
    run: async ({ env, out, now, positionals: [videoId] }) => {
      await withServiceData(env, async (stores) => {
        const outcome = await retryFailedStep(stores, videoId!, now());
        if ('refused' in outcome) {
          if (outcome.refused === undefined) throw new CliError('refused', `no video "${videoId}"`);
          throw new CliError(
            'refused',
            `video "${videoId}" is in status ${statusText(outcome.refused)}; only a failed download (4) or transcode (7) can be retried. Nothing changed.`,
          );
        }
        out(`queued a ${outcome.retried} job for video "${videoId}"; a running service takes it up within a few seconds`);
      });
    },
  },
];
