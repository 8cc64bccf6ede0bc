import { spawn, type ChildProcess } from 'node:child_process';
import type { ProcessLedger } from './processLedger';

/** A media tool (ffmpeg, ffprobe) could not start or exited with an error; the message ends with its stderr's last lines. */
export class MediaToolError extends Error {
  override readonly name = 'MediaToolError';
}

/** ffprobe's JSON for one file is a few KiB; anything far larger is not what we asked for. */
const MAX_STDOUT_BYTES = 4 * 1024 * 1024;
/** Only the end of stderr is kept: ffmpeg prints the cause last. */
const STDERR_TAIL_CHARS = 600;

/** The tool runs as the leader of its own process group, so the group ends with it, whatever it started. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL'); // the group is gone already, or the platform has none
  }
}

/**
 * Runs `command` with an argument array (never a shell, so no file name is ever interpreted) and
 * resolves with its stdout. Aborting `signal` kills the process; the promise then rejects with
 * the signal's reason, so callers can tell an interruption from a failure. With a `ledger`, the
 * process is recorded while it runs, so a service killed meanwhile can end it at its next start.
 */
export function runMediaTool(command: string, args: readonly string[], signal: AbortSignal, ledger?: ProcessLedger): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    // detached: its own process group, which also keeps a terminal's Ctrl-C from reaching it past the service.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, detached: true });
    const pid = child.pid;
    if (pid !== undefined) ledger?.record(pid, command);
    // SIGKILL cannot be refused, so a killed tool leaves the ledger at once: the service may exit
    // before its 'close' event arrives.
    const end = () => {
      killGroup(child);
      if (pid !== undefined) ledger?.forget(pid);
    };
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
      end();
      settle(() => reject(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES) {
        end();
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
      if (pid !== undefined) ledger?.forget(pid);
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
