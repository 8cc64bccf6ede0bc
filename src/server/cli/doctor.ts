import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadAppsFile } from '../auth/apps';
import { readConfig, type ServiceConfig } from '../config';
import { isSet } from '../configSchema';
import { readListening } from '../listeningFile';
import { probeTool, probeWritable } from '../operator/probes';
import { Bucket } from '../storage/bucket';
import { DATABASE_FILE } from '../storage/db';
import { openStores } from '../storage/stores';
import { CliError } from './cliError';
import type { Command } from './command';

/** One finding: `fix` says what to change when it is not ok. */
interface Finding {
  part: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const INSTALL_FFMPEG = 'install ffmpeg (Debian: apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH';

async function checkApps(config: ServiceConfig): Promise<Finding> {
  if (!config.appsFile) return { part: 'apps', ok: true, detail: 'APPS_FILE is not set: the service serves only its demo app' };
  try {
    return { part: 'apps', ok: true, detail: `${loadAppsFile(config.appsFile).length} app(s) in ${config.appsFile}` };
  } catch (error) {
    return { part: 'apps', ok: false, detail: messageOf(error), fix: 'correct the file; the service keeps running on the last good one' };
  }
}

async function checkDatabase(config: ServiceConfig): Promise<Finding> {
  const kind = config.databaseUrl ? 'PostgreSQL' : 'SQLite';
  if (!config.databaseUrl && !existsSync(join(config.dataDir, DATABASE_FILE))) {
    return { part: 'database', ok: true, detail: `SQLite: no database in ${config.dataDir} yet; the service makes it at its first start` };
  }
  try {
    const stores = await openStores(config);
    try {
      const problem = await stores.writeProblem();
      return problem
        ? { part: 'database', ok: false, detail: `${kind}: ${problem}`, fix: 'free space or fix permissions where the database lives' }
        : { part: 'database', ok: true, detail: `${kind}: reachable and writable` };
    } finally {
      await stores.close();
    }
  } catch (error) {
    const fix = config.databaseUrl
      ? 'check DATABASE_URL and that PostgreSQL runs and accepts this user'
      : 'check DATA_DIR and its database file';
    return { part: 'database', ok: false, detail: `${kind}: ${messageOf(error)}`, fix };
  }
}

async function checkStorage(config: ServiceConfig): Promise<Finding[]> {
  // The service makes a missing DATA_DIR at start; only one it cannot write to is a problem.
  const dataDir = existsSync(config.dataDir) ? await probeWritable(config.dataDir) : undefined;
  const findings: Finding[] = [
    dataDir
      ? {
          part: 'storage',
          ok: false,
          detail: `DATA_DIR ${config.dataDir} is not writable (${dataDir})`,
          fix: 'create it, give the service user write access, or free space',
        }
      : {
          part: 'storage',
          ok: true,
          detail: `DATA_DIR ${config.dataDir} ${existsSync(config.dataDir) ? 'is writable' : 'is made at the first start'}`,
        },
  ];
  if (config.s3) {
    const bucket = new Bucket(config.s3);
    try {
      const problem = await bucket.problem();
      findings.push(
        problem
          ? { part: 'storage', ok: false, detail: problem, fix: 'check S3_ENDPOINT, S3_BUCKET and the S3 credentials' }
          : { part: 'storage', ok: true, detail: `S3 bucket ${config.s3.bucket} answers` },
      );
    } finally {
      bucket.close();
    }
  }
  return findings;
}

async function checkTools(config: ServiceConfig): Promise<Finding> {
  const [ffmpeg, ffprobe] = await Promise.all([probeTool(config.ffmpegPath), probeTool(config.ffprobePath)]);
  if (ffmpeg) return { part: 'ffmpeg', ok: false, detail: `FFMPEG_PATH "${config.ffmpegPath}": ${ffmpeg}`, fix: INSTALL_FFMPEG };
  if (ffprobe) return { part: 'ffmpeg', ok: false, detail: `FFPROBE_PATH "${config.ffprobePath}": ${ffprobe}`, fix: INSTALL_FFMPEG };
  return { part: 'ffmpeg', ok: true, detail: 'ffmpeg and ffprobe run' };
}

/**
 * The address to check: PUBLIC_URL, else the one PORT gives. When this shell sets neither, the
 * service running on DATA_DIR says where it listens; the default port would test another service.
 */
function publicUrlToCheck(config: ServiceConfig, env: NodeJS.ProcessEnv): { url: string; from: string } {
  if (isSet(env, 'PUBLIC_URL')) return { url: config.publicUrl, from: 'PUBLIC_URL' };
  if (isSet(env, 'PORT')) return { url: config.publicUrl, from: 'PORT, as PUBLIC_URL is unset' };
  const running = readListening(config.dataDir);
  if (running) return { url: running.publicUrl, from: `the service running on DATA_DIR (pid ${running.pid})` };
  return { url: config.publicUrl, from: 'the default PORT, as PUBLIC_URL and PORT are unset' };
}

/** PUBLIC_URL is where browsers and apps reach the service: it must answer there, as this service. */
async function checkPublicUrl(config: ServiceConfig, env: NodeJS.ProcessEnv): Promise<Finding> {
  const { url: base, from } = publicUrlToCheck(config, env);
  const url = `${base}/healthz`;
  const fix = 'start the service, or run this with the PORT or PUBLIC_URL the service has (PUBLIC_URL: the address browsers and apps use)';
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000), redirect: 'manual' });
    const body = (await res.json().catch(() => undefined)) as { status?: unknown } | undefined;
    if (res.status === 200 && body?.status === 'ok') return { part: 'public URL', ok: true, detail: `${base} answers (from ${from})` };
    return {
      part: 'public URL',
      ok: false,
      detail: `${url} (from ${from}) answered HTTP ${res.status}, not this service's health check`,
      fix,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? messageOf(error);
    return { part: 'public URL', ok: false, detail: `${base} (from ${from}) does not answer from this machine (${cause})`, fix };
  }
}

export const doctorCommand: Command = {
  name: 'doctor',
  usage: 'doctor',
  summary: 'check the configuration, database, storage, ffmpeg and PUBLIC_URL, and say how to fix what is wrong',
  run: async ({ env, out }) => {
    let config: ServiceConfig;
    try {
      config = readConfig(env);
    } catch (error) {
      out(`FAIL  config: ${messageOf(error)}`);
      throw new CliError('refused', 'fix the configuration first; the other checks need it');
    }
    out('ok    config: the environment parses');
    const findings = [
      await checkApps(config),
      await checkDatabase(config),
      ...(await checkStorage(config)),
      await checkTools(config),
      await checkPublicUrl(config, env),
    ];
    for (const finding of findings) {
      out(`${finding.ok ? 'ok  ' : 'FAIL'}  ${finding.part}: ${finding.detail}`);
      if (!finding.ok && finding.fix) out(`      fix: ${finding.fix}`);
    }
    const failed = findings.filter((finding) => !finding.ok).length;
    if (failed > 0) throw new CliError('refused', `${failed} problem(s) found`);
  },
};
