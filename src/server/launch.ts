import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppsFileError, loadAppsFile } from './auth/apps';
import { reloadAppsFile, warnShortSecrets } from './auth/appsFileReload';
import { ConfigError, readConfig, type ServiceConfig } from './config';
import { startService, type RunningService } from './app';
import type { Logger } from './log';
import { BucketUnreachableError } from './media/mediaFiles';
import { forgetListening, recordListening } from './listeningFile';
import { probeTool, probeWritable } from './operator/probes';
import { DatabaseFileError, DatabaseUnavailableError, SchemaVersionError } from './storage/db';
import { PRIVATE_DIR_MODE } from './storage/privateModes';
import { PROJECT_VERSION } from './project';

/** What must work before the service listens; each failure names the setting to fix. */
async function preflight(config: ServiceConfig): Promise<void> {
  const dataDirProblem = await mkdir(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE }).then(
    () => probeWritable(config.dataDir),
    (error: NodeJS.ErrnoException) => error.code ?? 'EIO',
  );
  if (dataDirProblem) throw new ConfigError(`DATA_DIR ${config.dataDir} is not writable (${dataDirProblem})`);
  const [ffmpeg, ffprobe] = await Promise.all([probeTool(config.ffmpegPath), probeTool(config.ffprobePath)]);
  const install = 'install ffmpeg (Debian: apt-get install ffmpeg)';
  if (ffmpeg) throw new ConfigError(`FFMPEG_PATH "${config.ffmpegPath}" cannot be run (${ffmpeg}): ${install} or set FFMPEG_PATH`);
  if (ffprobe) throw new ConfigError(`FFPROBE_PATH "${config.ffprobePath}" cannot be run (${ffprobe}): ${install} or set FFPROBE_PATH`);
}

/**
 * The bucket's tus store (upload/bucketStore.ts) buffers the parts of a PATCH being sent in
 * `os.tmpdir()` (its files are 0600); uploaded bytes are as private as `DATA_DIR`, so with S3 the
 * process's temporary directory is a 0700 folder in it, emptied at start-up (a crash leaves
 * buffers behind). Only here, where one process runs one service: `TMPDIR` is process-wide.
 */
async function usePrivateTmpDir(config: ServiceConfig): Promise<void> {
  if (!config.s3) return;
  const dir = join(config.dataDir, 'tmp');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { mode: PRIVATE_DIR_MODE });
  process.env.TMPDIR = dir;
}

export interface LaunchOptions {
  /** The demo app's address, linked from the landing page (`npm run demo`). */
  demoUrl?: string;
}

/** The service as `npm start` runs it: configuration from `env`, checked, then listening. */
export async function launchService(env: NodeJS.ProcessEnv, log: Logger, options: LaunchOptions = {}): Promise<RunningService> {
  const config = readConfig(env);
  await preflight(config);
  await usePrivateTmpDir(config);
  // Without APPS_FILE, the service serves the demo app kept in its database.
  const apps = config.appsFile ? loadAppsFile(config.appsFile) : undefined;
  if (apps) warnShortSecrets(apps, log);
  const service = await startService({ config, apps, log, demoUrl: options.demoUrl });
  // Only here, where one process runs one service: SIGHUP is process-wide.
  const reload =
    config.appsFile && apps ? reloadAppsFile({ file: config.appsFile, served: apps, replace: service.replaceApps, log }) : undefined;
  log.info('service listening', {
    version: PROJECT_VERSION,
    address: service.address,
    ...(service.opsAddress && { opsAddress: service.opsAddress }),
    publicUrl: service.context.config.publicUrl,
    dataDir: config.dataDir,
    database: service.context.stores.dialect,
    files: config.s3 ? `S3 bucket ${config.s3.bucket}` : 'DATA_DIR',
    logLevel: config.logLevel,
  });
  await recordListening(config.dataDir, { pid: process.pid, publicUrl: service.context.config.publicUrl });
  return {
    ...service,
    async close() {
      reload?.close();
      await service.close();
      await forgetListening(config.dataDir);
    },
  };
}

/** Start-up failures an operator can fix get one clear line, not a stack trace. */
function operatorMessage(error: unknown): string | undefined {
  if (
    error instanceof ConfigError ||
    error instanceof AppsFileError ||
    error instanceof SchemaVersionError ||
    error instanceof DatabaseUnavailableError ||
    error instanceof DatabaseFileError ||
    error instanceof BucketUnreachableError
  ) {
    return error.message;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `PORT is already in use: ${(error as Error).message}`;
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') return `cannot listen on HOST/PORT: ${(error as Error).message}`;
  return undefined;
}

/** Ends the process after a failed start: one line for what an operator can fix, the stack otherwise. */
export function exitOnStartupError(error: unknown, log: Logger): never {
  const message = operatorMessage(error);
  if (message === undefined) throw error;
  log.error(message);
  process.exit(1);
}
