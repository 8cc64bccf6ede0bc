/**
 * `npm start` and `npm run demo`: the built service (dist/server) run in this very process by
 * plain node. The npm scripts `exec` this file, so npm's only child is this process and the
 * SIGTERM or SIGINT npm passes on reaches the whole service; nothing is left behind.
 *
 * It builds first when the build is missing or older than a source (a fresh clone, an edit), which
 * needs the dev dependencies. A production tree (no sources, or no dev dependencies) runs the build
 * it holds.
 *
 *   node scripts/start.mjs               the service (dist/server/main.js)
 *   node scripts/start.mjs demo          the demo app beside the service (dist/server/demo.js)
 *   node scripts/start.mjs --build-only  build when needed, then exit (scripts/production-install.sh)
 *   node scripts/start.mjs cli <args>    the operator's command line (scripts/cli.mjs, the package's bin)
 *
 * Plain JavaScript on purpose: it must run before anything is compiled.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const entries = { start: 'dist/server/main.js', demo: 'dist/server/demo.js', cli: 'dist/server/cli.js' };
/** What the build reads; a newer one of these makes the build stale. */
const SOURCE_DIRS = ['src', 'demo'];
const SOURCE_FILES = ['scripts/build.ts', 'vite.config.ts', 'package.json'];
/** Packages the build needs and `npm prune --omit=dev` removes. */
const BUILD_TOOLS = ['tsx', 'vite', 'esbuild', 'typescript'];

/** The same JSON line as the service's log, so one collector reads both. */
function log(level, message) {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, message }) + '\n');
}

/** Tests beside the sources are not built; editing one needs no new build. */
const NOT_BUILT = /\.test\.tsx?$/;

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) {
    if (!NOT_BUILT.test(name)) newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

/** 'missing', 'stale' or 'current'; a tree without sources (a production install) is current. */
function buildState() {
  const output = join(root, entries.start);
  if (!existsSync(output)) return 'missing';
  if (!existsSync(join(root, 'src'))) return 'current';
  const sources = [...SOURCE_DIRS, ...SOURCE_FILES].map((path) => join(root, path)).filter((path) => existsSync(path));
  const newest = Math.max(...sources.map(newestMtime));
  return newest > statSync(output).mtimeMs ? 'stale' : 'current';
}

function runBuild() {
  return new Promise((resolve) => {
    // What `npm run build` runs, as one process: through npm and its shell, a signal would stop
    // the shell and leave the build running.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: root, stdio: 'inherit' });
    // A stop asked for during the build ends the build too.
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(signal ? 1 : (code ?? 1));
    });
  });
}

async function ensureBuild() {
  const state = buildState();
  if (state === 'current') return;
  const missingTools = BUILD_TOOLS.filter((name) => !existsSync(join(root, 'node_modules', name)));
  if (missingTools.length > 0) {
    if (state === 'missing') {
      log(
        'error',
        `cannot start: ${entries.start} is missing and the build tools (${missingTools.join(', ')}) are not installed; run \`npm install && npm run build\`, then \`npm start\``,
      );
      process.exit(1);
    }
    log('warn', `the build in dist/ is older than the sources, but the build tools are not installed; running it as it is`);
    return;
  }
  log('info', state === 'missing' ? 'no build in dist/: building first' : 'the sources changed since the last build: building first');
  const code = await runBuild();
  if (code !== 0) {
    log('error', `cannot start: \`npm run build\` failed (exit code ${code})`);
    process.exit(1);
  }
}

const mode = process.argv[2] ?? 'start';
if (mode !== 'start' && mode !== 'demo' && mode !== 'cli' && mode !== '--build-only') {
  log('error', `unknown argument "${mode}": use no argument, \`demo\`, \`cli\` or \`--build-only\``);
  process.exit(1);
}
await ensureBuild();
if (mode !== '--build-only') {
  // Stack traces then name the TypeScript sources rather than the bundle.
  process.setSourceMapsEnabled(true);
  // The command line reads its own arguments, as if it had been run directly.
  if (mode === 'cli') process.argv.splice(2, 1);
  await import(pathToFileURL(join(root, entries[mode])).href);
}
