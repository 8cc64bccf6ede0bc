import { spawn } from 'node:child_process';

/** A media tool (ffmpeg, ffprobe) could not start or exited with an error; the message ends with its stderr's last lines. */
export class MediaToolError extends Error {
  override readonly name = 'MediaToolError';
}

/** ffprobe's JSON for one file is a few KiB; anything far larger is not what we asked for. */
const MAX_STDOUT_BYTES = 4 * 1024 * 1024;
/** Only the end of stderr is kept: ffmpeg prints the cause last. */
const STDERR_TAIL_CHARS = 600;

/**
 * Runs `command` with an argument array (never a shell, so no file name is ever interpreted) and
 * resolves with its stdout. Aborting `signal` kills the process; the promise then rejects with
 * the signal's reason, so callers can tell an interruption from a failure.
 */
export function runMediaTool(command: string, args: readonly string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      action();
    };
    const onAbort = () => {
      child.kill('SIGKILL');
      settle(() => reject(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES) {
        child.kill('SIGKILL');
        settle(() => reject(new MediaToolError(`${command} wrote more than ${MAX_STDOUT_BYTES} bytes`)));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS * 2);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      const hint = error.code === 'ENOENT' ? ' (is ffmpeg installed? see FFMPEG_PATH / FFPROBE_PATH)' : '';
      settle(() => reject(new MediaToolError(`${command} could not start: ${error.message}${hint}`)));
    });
    child.once('close', (code, killedBy) => {
      settle(() => {
        if (code === 0) {
          resolve(Buffer.concat(stdout).toString('utf8'));
          return;
        }
        const tail = stderr.trim().split('\n').slice(-4).join(' | ').slice(-STDERR_TAIL_CHARS);
        const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
        reject(new MediaToolError(`${command} ${how}${tail ? `: ${tail}` : ''}`));
      });
    });
  });
}
