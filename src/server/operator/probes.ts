import { randomBytes } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMediaTool } from '../processing/ffmpeg';

/** How long `ffmpeg -version` may take before the tool counts as unusable. */
const TOOL_PROBE_TIMEOUT_MS = 5_000;

/**
 * Writes, then removes, a small file in `dir`: proves the folder exists, is writable and has room.
 * Resolves with the error code (ENOENT, EACCES, ENOSPC, EROFS…) when it is not; never rejects.
 */
export async function probeWritable(dir: string): Promise<string | undefined> {
  const file = join(dir, `.probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(file, 'ok', { flag: 'wx', mode: 0o600 });
    await unlink(file);
    return undefined;
  } catch (error) {
    await unlink(file).catch(() => {});
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  }
}

/**
 * Runs `command -version`; resolves with why it is unusable ('not found', 'timed out', 'failed'),
 * never naming its path, or undefined when it runs. Never rejects.
 */
export async function probeTool(command: string): Promise<string | undefined> {
  try {
    await runMediaTool(command, ['-version'], AbortSignal.timeout(TOOL_PROBE_TIMEOUT_MS));
    return undefined;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return 'timed out';
    return /could not start: .*ENOENT/.test(String(error)) ? 'not found' : 'failed';
  }
}
