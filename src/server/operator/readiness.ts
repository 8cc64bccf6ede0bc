import type { ServiceContext } from '../context';
import { probeTool, probeWritable } from './probes';

/** The parts /readyz checks; each is 'ok' or a reason that names no path and no secret. */
export interface ReadinessReport {
  ready: boolean;
  checks: { database: string; storage: string; ffmpeg: string; bucket?: string };
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
  return async () => {
    const storageProblem = await probeWritable(service.config.dataDir);
    const checks = {
      database: (await service.stores.writeProblem()) ?? 'ok',
      storage: storageProblem ? `DATA_DIR is not writable (${storageProblem})` : 'ok',
      ffmpeg: await checkTools(),
      // Named only when files live in S3: the reason names the bucket (S3_BUCKET), never a key.
      ...(service.files.bucket ? { bucket: (await service.files.bucket.problem()) ?? 'ok' } : {}),
    };
    return { ready: Object.values(checks).every((check) => check === 'ok'), checks };
  };
}
