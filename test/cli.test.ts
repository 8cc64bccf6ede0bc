import { execFile, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../src/server/auth/token';
import { runCli } from '../src/server/cli/runCli';
import { listenLoopback, type LoopbackServer } from '../e2e/support/httpServer';
import { databaseUrlFor } from './support/database';
import { startServiceProcess, type ServiceProcess } from './support/serviceProcess';

const root = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const SHOP = { appId: 'shop', appSecret: 'secret-of-the-shop-0123456789' };

let home: string;
let appsFile: string;
let env: Record<string, string>;
let service: ServiceProcess;
let address: string;
let missing: LoopbackServer;

/** The command line with the service's env, in this process (the bin's own process is tested below). */
async function cli(...args: string[]): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, { env, out: (line) => stdout.push(`${line}\n`), err: (line) => stderr.push(`${line}\n`) });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** The command line with an environment of its own, as in another shell. */
async function runCliWith(cliEnv: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const saved = env;
  env = cliEnv;
  try {
    return await cli(...args);
  } finally {
    env = saved;
  }
}

const entries = () => JSON.parse(readFileSync(appsFile, 'utf8')) as Record<string, unknown>[];
const secretIn = (stdout: string) => /AppSecret \(shown only now[^:]*\): (\S+)/.exec(stdout)?.[1];

async function post(
  appId: string,
  appSecret: string,
  form: Record<string, string>,
): Promise<{ AuthMsg: { ResultCode: string }; VideoId?: string }> {
  const Timestamp = String(Math.floor(Date.now() / 1000));
  const body = new URLSearchParams({ AppId: appId, Timestamp, Token: signToken(Timestamp, appSecret), ...form });
  return (await (await fetch(`${address}/Api/Video/Post`, { method: 'POST', body })).json()) as {
    AuthMsg: { ResultCode: string };
    VideoId?: string;
  };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'ovu-cli-'));
  appsFile = join(home, 'apps.json');
  writeFileSync(appsFile, JSON.stringify([SHOP]), { mode: 0o600 });
  const dataDir = join(home, 'data');
  const databaseUrl = await databaseUrlFor(dataDir);
  env = {
    DATA_DIR: dataDir,
    APPS_FILE: appsFile,
    SOURCE_URL_ALLOW_PRIVATE: '1',
    PUBLIC_URL: 'http://127.0.0.1:0',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  };
  service = startServiceProcess({ PORT: '0', ...env });
  ({ address } = JSON.parse(await service.waitFor(/service listening/)) as { address: string });
  env.PUBLIC_URL = address;
  missing = await listenLoopback((_req, res) => void res.writeHead(404).end());
}, 60_000);

afterAll(async () => {
  service?.stop();
  await service?.exit;
  await missing?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('open-video-upload apps', () => {
  it('adds an app with a strong secret printed once, which the running service accepts without a restart', async () => {
    const added = await cli('apps', 'add', 'blog', '--callback-url', 'http://127.0.0.1:9/cb', '--allowed-origin', 'https://blog.example');
    expect(added.code).toBe(0);
    const secret = secretIn(added.stdout);
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(entries().find((entry) => entry.appId === 'blog')).toEqual({
      appId: 'blog',
      appSecret: secret,
      callbackUrl: 'http://127.0.0.1:9/cb',
      allowedOrigins: ['https://blog.example'],
    });
    expect(statSync(appsFile).mode & 0o777).toBe(0o600);
    await expect
      .poll(async () => (await post('blog', secret!, { VideoTitle: 't', SourceFileGetType: '1', CreateUser: 'u' })).AuthMsg.ResultCode, {
        timeout: 10_000,
      })
      .toBe('1');

    const listed = await cli('apps', 'list');
    expect(listed.stdout).toContain('blog  callback http://127.0.0.1:9/cb  origins https://blog.example');
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).not.toContain(SHOP.appSecret);
  });

  it('refuses an id that exists, or is not one, and leaves the file as it was', async () => {
    const before = readFileSync(appsFile, 'utf8');
    const again = await cli('apps', 'add', 'shop');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('app "shop" already exists; for a new secret use: apps rotate shop');
    // Printable ASCII up to 64 characters: nothing that could forge a line of `apps list` or a log.
    for (const bad of [' padded', 'forged\nshop  callback https://evil.example', 'a\tb', 'x'.repeat(65), 'café', '']) {
      const refused = await cli('apps', 'add', bad);
      expect(refused.code, JSON.stringify(bad)).toBe(2);
      expect(refused.stderr).toContain('appId must be 1 to 64 printable ASCII characters');
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(appsFile, 'utf8')).toBe(before);
  });

  it('rotates a secret, keeping the old one for the overlap', async () => {
    const rotated = await cli('apps', 'rotate', 'shop', '--overlap', '2h');
    expect(rotated.code).toBe(0);
    const secret = secretIn(rotated.stdout);
    const shop = entries().find((entry) => entry.appId === 'shop')!;
    expect(shop.appSecret).toBe(secret);
    expect(shop.previousSecret).toBe(SHOP.appSecret);
    const until = Date.parse(String(shop.previousSecretUntil));
    expect(Math.abs(until - (Date.now() + 2 * 3_600_000))).toBeLessThan(60_000);
    expect((await cli('apps', 'rotate', 'shop', '--overlap', 'soon')).code).toBe(2);
  });

  it('keeps every secret a rotation promised until its own time, when a second rotation comes within the overlap', async () => {
    const first = entries().find((entry) => entry.appId === 'shop')!;
    const again = await cli('apps', 'rotate', 'shop', '--overlap', '1h');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`an earlier secret stays accepted until ${String(first.previousSecretUntil)}, as promised`);
    const newest = secretIn(again.stdout)!;
    const shop = entries().find((entry) => entry.appId === 'shop')!;
    expect(shop).toMatchObject({ appSecret: newest, previousSecret: first.appSecret });
    expect(shop.olderSecrets).toEqual([{ secret: SHOP.appSecret, until: first.previousSecretUntil }]);
    // The running service takes all three: the newest, the one before and the original.
    for (const secret of [newest, first.appSecret as string, SHOP.appSecret]) {
      await expect
        .poll(async () => (await post('shop', secret, { VideoTitle: 't', SourceFileGetType: '1', CreateUser: 'u' })).AuthMsg.ResultCode, {
          timeout: 10_000,
        })
        .toBe('1');
    }
    expect((await cli('apps', 'list')).stdout).toContain(`older secret valid until ${String(first.previousSecretUntil)}`);
  });

  it('keeps every edit of commands run at once, each in its own process', async () => {
    const ids = Array.from({ length: 8 }, (_, index) => `at-once-${index}`);
    const results = await Promise.all(
      ids.map((id) =>
        run(process.execPath, ['--import', 'tsx', 'src/server/cli/main.ts', 'apps', 'add', id], {
          cwd: root,
          env: { ...process.env, ...env },
        }),
      ),
    );
    const secrets = results.map((result) => secretIn(result.stdout));
    const saved = entries();
    for (const [index, id] of ids.entries()) {
      expect(saved.find((entry) => entry.appId === id)?.appSecret, id).toBe(secrets[index]);
    }
    expect(existsSync(`${appsFile}.lock`)).toBe(false);
    for (const id of ids) expect((await cli('apps', 'remove', id)).code).toBe(0);
  }, 60_000);

  it('takes over the lock a crashed command left behind', async () => {
    // A process that has ended: its id names no running process.
    const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${appsFile}.lock`, `${ended}@${hostname()}\n`);
    expect((await cli('apps', 'add', 'after-crash')).code).toBe(0);
    expect(existsSync(`${appsFile}.lock`)).toBe(false);
    expect((await cli('apps', 'remove', 'after-crash')).code).toBe(0);
  });

  it('writes through a symlinked APPS_FILE: the target changes, the link stays a link', async () => {
    const real = join(home, 'real');
    const links = join(home, 'links');
    mkdirSync(real);
    mkdirSync(links);
    writeFileSync(join(real, 'apps.json'), JSON.stringify([SHOP]), { mode: 0o640 });
    symlinkSync(join(real, 'apps.json'), join(links, 'apps.json'));
    const linked = { ...env, APPS_FILE: join(links, 'apps.json') };
    const code = await runCli(['apps', 'add', 'linked'], { env: linked, out: () => {}, err: () => {} });
    expect(code).toBe(0);
    expect(lstatSync(join(links, 'apps.json')).isSymbolicLink()).toBe(true);
    const target = JSON.parse(readFileSync(join(real, 'apps.json'), 'utf8')) as { appId: string }[];
    expect(target.map((entry) => entry.appId)).toEqual(['shop', 'linked']);
    expect(statSync(join(real, 'apps.json')).mode & 0o777).toBe(0o640);
    expect(readdirSync(links)).toEqual(['apps.json']);
  });

  it('ends quietly when the reader of `apps list` stops early (| head -1)', async () => {
    const many = join(home, 'many.json');
    writeFileSync(many, JSON.stringify(Array.from({ length: 2000 }, (_, index) => ({ appId: `app-${index}`, appSecret: `s-${index}` }))));
    const command = `${JSON.stringify(process.execPath)} --import tsx src/server/cli/main.ts apps list | head -1; echo "exit $\{PIPESTATUS[0]}" >&2`;
    const { stdout, stderr } = await run('bash', ['-c', command], { cwd: root, env: { ...process.env, ...env, APPS_FILE: many } });
    expect(stdout).toBe('app-0\n');
    expect(stderr).toBe('exit 0\n');
  }, 60_000);

  it('removes an app, and the running service refuses it from then on', async () => {
    const { stdout } = await cli('apps', 'add', 'gone');
    const secret = secretIn(stdout)!;
    await expect
      .poll(async () => (await post('gone', secret, { VideoTitle: 't', SourceFileGetType: '1', CreateUser: 'u' })).AuthMsg.ResultCode, {
        timeout: 10_000,
      })
      .toBe('1');
    expect((await cli('apps', 'remove', 'gone')).code).toBe(0);
    expect(entries().some((entry) => entry.appId === 'gone')).toBe(false);
    await expect
      .poll(async () => (await post('gone', secret, { VideoTitle: 't', SourceFileGetType: '1', CreateUser: 'u' })).AuthMsg.ResultCode, {
        timeout: 10_000,
      })
      .toBe('102');
    expect((await cli('apps', 'remove', 'gone')).stderr).toContain('no app "gone"');
  });
});

describe('open-video-upload videos and jobs', () => {
  it('shows a video, lists its failed download, retries it, and refuses to retry a video that did not fail', async () => {
    const secret = entries().find((entry) => entry.appId === 'shop')!.appSecret as string;
    const { VideoId: failing } = await post('shop', secret, {
      VideoTitle: 'lost source',
      SourceFileGetType: '2',
      SourceFilePath: `http://127.0.0.1:${missing.port}/clip.mp4`,
      CreateUser: 'u',
    });
    await expect
      .poll(async () => JSON.parse((await cli('videos', 'show', failing!)).stdout).video.status, { timeout: 20_000 })
      .toBe('4 (DownloadFailed)');
    const shown = JSON.parse((await cli('videos', 'show', failing!)).stdout) as {
      video: { title: string };
      jobs: { kind: string; state: string }[];
    };
    expect(shown.video.title).toBe('lost source');
    expect(shown.jobs).toMatchObject([{ kind: 'download', state: 'failed' }]);
    expect((await cli('jobs', 'list', '--state', 'failed')).stdout).toContain(`${failing}  download  failed`);

    const retried = await cli('jobs', 'retry', failing!);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('queued a download job');
    // The running service takes the job up and the source is still missing: a second failed download.
    await expect.poll(async () => JSON.parse((await cli('videos', 'show', failing!)).stdout).jobs.length, { timeout: 20_000 }).toBe(2);

    const { VideoId: waiting } = await post('shop', secret, { VideoTitle: 'waiting', SourceFileGetType: '1', CreateUser: 'u' });
    const refused = await cli('jobs', 'retry', waiting!);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'is in status 8 (NotUploaded); only a failed download (4) or transcode (7) can be retried. Nothing changed.',
    );
    expect(JSON.parse((await cli('videos', 'show', waiting!)).stdout).video.status).toBe('8 (NotUploaded)');
    expect((await cli('jobs', 'list', '--state', 'lost')).code).toBe(2);
    expect((await cli('videos', 'show', 'no-such-video')).stderr).toContain('no video "no-such-video"');
  }, 60_000);
});

describe('open-video-upload doctor', () => {
  it('passes on a working service and names each broken part with its fix', async () => {
    const healthy = await cli('doctor');
    expect(healthy.stdout).not.toContain('FAIL');
    expect(healthy.code).toBe(0);

    const broken = { ...env };
    env = { ...env, FFMPEG_PATH: '/nonexistent/ffmpeg', PUBLIC_URL: `http://127.0.0.1:${missing.port}` };
    const sick = await cli('doctor');
    env = broken;
    expect(sick.code).toBe(1);
    expect(sick.stdout).toMatch(/FAIL {2}ffmpeg: FFMPEG_PATH "\/nonexistent\/ffmpeg": not found\n {6}fix: install ffmpeg/);
    expect(sick.stdout).toMatch(
      /FAIL {2}public URL: .*answered HTTP 404.*\n {6}fix: start the service, or run this with the PORT or PUBLIC_URL/,
    );
    expect(sick.stderr).toContain('2 problem(s) found');
  });

  it('checks the service running on DATA_DIR when its shell sets neither PORT nor PUBLIC_URL', async () => {
    // The README's way: the service started with its own PORT, doctor run later in another shell.
    const dataDir = join(home, 'elsewhere');
    const other = startServiceProcess({ DATA_DIR: dataDir, PORT: '0' });
    try {
      const { publicUrl } = JSON.parse(await other.waitFor(/service listening/)) as { publicUrl: string };
      expect(publicUrl).not.toMatch(/:8080$/);
      const found = await runCliWith({ DATA_DIR: dataDir }, 'doctor');
      expect(found.stdout).toContain(`ok    public URL: ${publicUrl} answers (from the service running on DATA_DIR`);
      expect(found.code).toBe(0);
    } finally {
      other.stop();
      await other.exit;
    }
    // Stopped, it no longer claims the address: the default port is what is left to check.
    // An empty PORT is unset, as the service reads it.
    const gone = await runCliWith({ DATA_DIR: dataDir, PORT: '' }, 'doctor');
    expect(gone.stdout).toMatch(/public URL: http:\/\/localhost:8080 \(from the default PORT, as PUBLIC_URL and PORT are unset\)/);
  }, 60_000);
});

describe('open-video-upload --help', () => {
  it('lists every command, and each command explains itself', async () => {
    const overview = await cli('--help');
    for (const command of ['apps list', 'apps add', 'apps rotate', 'apps remove', 'videos show', 'jobs list', 'jobs retry', 'doctor']) {
      expect(overview.stdout).toContain(command);
      const help = await cli(...command.split(' '), '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: open-video-upload ${command}`));
    }
    const unknown = await cli('apps', 'frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "apps frobnicate"');
  }, 60_000);

  it('runs as the package bin through npx in a checkout, with exit codes for scripts', async () => {
    const { stdout } = await run('npx', ['--no-install', 'open-video-upload', '--help'], { cwd: root });
    expect(stdout).toContain('Usage: open-video-upload <command>');
    const refused = await run('npx', ['--no-install', 'open-video-upload', 'apps', 'add', 'shop'], {
      cwd: root,
      env: { ...process.env, ...env },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: unknown) => error as CliResult,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('app "shop" already exists');
  }, 60_000);
});
