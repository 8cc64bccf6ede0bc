import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const PACK_DIR = join(root, 'dist/pack');

/** The one tarball `npm run pack:widget` wrote. */
function packedTarball(): string {
  const files = existsSync(PACK_DIR) ? readdirSync(PACK_DIR).filter((file) => file.endsWith('.tgz')) : [];
  if (files.length !== 1) throw new Error(`expected one tarball in dist/pack, found ${files.length}: run \`npm run pack:widget\` first`);
  return join(PACK_DIR, files[0]!);
}

/** Packages of this repository's service that must never reach an app that installs the widget. */
function servicePackages(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return [...Object.keys(manifest.dependencies), 'preact', 'tus-js-client', '@tus/utils'];
}

export interface InstalledFixture {
  dir: string;
  /** Runs a program of the fixture (e.g. `npx tsc`), resolving with its output; a non-zero exit rejects with it. */
  run(command: string, args: string[], env?: Record<string, string>): Promise<string>;
  /** Top-level packages in node_modules (scoped ones as `@scope/name`). */
  installed(): string[];
  remove(): void;
}

/**
 * A copy of `test/consumers/<name>` in a temporary folder with the packed tarball as its
 * `open-video-upload` dependency, installed as an app would (its other packages from the npm
 * cache). Throws when the package brought any dependency or any package of the service along.
 */
export async function installFixture(name: string): Promise<InstalledFixture> {
  const dir = mkdtempSync(join(tmpdir(), `ovu-consumer-${name}-`));
  cpSync(join(root, 'test/consumers', name), dir, { recursive: true });
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  manifest.dependencies = { 'open-video-upload': `file:${packedTarball()}` };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

  const runIn = async (command: string, args: string[], env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run(command, args, { cwd: dir, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
      return stdout + stderr;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${command} ${args.join(' ')} failed in ${dir}:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`);
    }
  };
  await runIn('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund']);

  const installed = () =>
    readdirSync(join(dir, 'node_modules')).flatMap((entry) =>
      entry.startsWith('@')
        ? readdirSync(join(dir, 'node_modules', entry)).map((scoped) => `${entry}/${scoped}`)
        : entry.startsWith('.')
          ? []
          : [entry],
    );
  const ours = JSON.parse(readFileSync(join(dir, 'node_modules/open-video-upload/package.json'), 'utf8')) as Record<string, unknown>;
  for (const field of ['dependencies', 'optionalDependencies']) {
    if (ours[field] !== undefined) throw new Error(`open-video-upload declares ${field}: ${JSON.stringify(ours[field])}`);
  }
  // Peers only for `open-video-upload/react`, all optional: an app without React installs nothing more.
  const peers = Object.keys((ours.peerDependencies as Record<string, string> | undefined) ?? {});
  const peerMeta = (ours.peerDependenciesMeta as Record<string, { optional?: boolean }> | undefined) ?? {};
  const required = peers.filter((peer) => peerMeta[peer]?.optional !== true);
  if (required.length > 0) throw new Error(`open-video-upload requires peers: ${required.join(', ')}`);
  const leaked = servicePackages().filter((pkg) => installed().includes(pkg));
  if (leaked.length > 0) throw new Error(`the service's packages landed in the app: ${leaked.join(', ')}`);

  return { dir, run: runIn, installed, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
