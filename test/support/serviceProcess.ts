import { spawn } from 'node:child_process';
import { watchProcess, type WatchedProcess } from './childProcess';

/** `npm start` minus the browser build: the real entry point in its own process. */
export interface ServiceProcess extends WatchedProcess {
  pid: number;
}

export interface ServiceProcessOptions {
  /**
   * Largest file the service may write (RLIMIT_FSIZE, in 512-byte blocks, so a multiple of 512):
   * past it a write fails with EFBIG as on a full disk. Set through the shell's `ulimit -f`,
   * which needs no privilege; Node ignores the SIGXFSZ that comes with it.
   */
  fileSizeLimitBytes?: number;
}

export function startServiceProcess(env: Record<string, string>, options: ServiceProcessOptions = {}): ServiceProcess {
  const command = [process.execPath, '--import', 'tsx', 'src/server/main.ts'];
  const limited =
    options.fileSizeLimitBytes === undefined
      ? command
      : ['/bin/sh', '-c', `ulimit -f ${Math.floor(options.fileSizeLimitBytes / 512)} && exec "$@"`, 'sh', ...command];
  const child = spawn(limited[0]!, limited.slice(1), {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { ...watchProcess(child), pid: child.pid! };
}
