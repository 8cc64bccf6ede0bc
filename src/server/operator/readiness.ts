import type { ServiceContext } from '../context';
import { probeTool, probeWritable } from './probes';

/** The parts /readyz checks, by the names every reply uses. */
const READINESS_PARTS = ['database', 'storage', 'ffmpeg'] as const;
export type ReadinessPart = (typeof READINESS_PARTS)[number];

/**
 * One round of checks. `details` holds per part 'ok' or why it fails: a setting's name and an
 * error code, the bucket's name and its endpoint's host, a database host. That is for the log and
 * for operators (OPS_TOKEN, OPS_PORT) only; anyone else sees {@link publicChecks}.
 */
export interface ReadinessReport {
  ready: boolean;
  details: Record<ReadinessPart, string>;
}

/** What /readyz tells a caller without credentials: each part 'ok' or 'failing', nothing about the infrastructure. */
export function publicChecks(report: ReadinessReport): Record<ReadinessPart, 'ok' | 'failing'> {
  const checks = {} as Record<ReadinessPart, 'ok' | 'failing'>;
  for (const part of READINESS_PARTS) checks[part] = report.details[part] === 'ok' ? 'ok' : 'failing';
  return checks;
}

/** A working ffmpeg stays working; probing it once a while spares a process spawn per probe. */
const TOOL_CHECK_TTL_MS = 30_000;

/** Readiness checks for one service; a passing ffmpeg check is reused for {@link TOOL_CHECK_TTL_MS}. */
export function readinessChecker(service: ServiceContext): () => Promise<ReadinessReport> {
  let toolsPassedAt = -Infinity;
  const checkTools = async (): Promise<string> => {
    if (service.now() - toolsPassedAt < TOOL_CHECK_TTL_MS) return 'ok';
    const { ffmpegPath, ffprobePath } = service.config;
    const [ffmpeg, ffprobe] = await Promise.all([probeTool(ffmpegPath), probeTool(ffprobePath)]);
    if (ffmpeg) return `FFMPEG_PATH ${ffmpeg}`;
    if (ffprobe) return `FFPROBE_PATH ${ffprobe}`;
    toolsPassedAt = service.now();
    return 'ok';
  };
  // Storage is DATA_DIR (files, or with S3 the scratch space for ffmpeg) and, with S3, the bucket.
  const checkStorage = async (): Promise<string> => {
    const [dataDir, bucket] = await Promise.all([probeWritable(service.config.dataDir), service.files.bucket?.problem()]);
    const problems = [dataDir && `DATA_DIR is not writable (${dataDir})`, bucket].filter(Boolean);
    return problems.length > 0 ? problems.join('; ') : 'ok';
  };
  return async () => {
    const [database, storage, ffmpeg] = await Promise.all([service.stores.writeProblem(), checkStorage(), checkTools()]);
    const details = { database: database ?? 'ok', storage, ffmpeg };
    return { ready: Object.values(details).every((check) => check === 'ok'), details };
  };
}
