/**
 * `npm run pack:widget`: the publishable package `open-video-upload` in dist/package, packed to
 * the one tarball in dist/pack.
 *
 * The repository's own package.json stays private (it is the service, with its dependencies);
 * the package is generated beside it with its own package.json and no dependencies at all:
 *   index.js + index.d.ts   the widget (`openUpload`), ESM for bundlers and browsers
 *   sdk.js + sdk.d.ts       `open-video-upload/sdk` for app backends (Node >= 20.19)
 * Each entry has one bundled declaration file with no relative imports, so the types resolve the
 * same under `bundler`, `node16`, `nodenext` and `node10` (where `open-video-upload/sdk` finds
 * sdk.d.ts at the package root, so no `typesVersions` is needed).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { build, type InlineConfig } from 'vite';
import { dist, npmModule } from '../vite.config';

const root = resolve(import.meta.dirname, '..');
const packageDir = resolve(dist, 'package');
const packDir = resolve(dist, 'pack');

/** The package's entries: subpath → source and file name (without extension) in the package. */
const ENTRIES = [
  { subpath: '.', source: 'src/widget/index.ts', name: 'index' },
  { subpath: './sdk', source: 'src/sdk/index.ts', name: 'sdk' },
] as const;

const sdkModule: InlineConfig = {
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    outDir: packageDir,
    emptyOutDir: false,
    reportCompressedSize: false,
    // Node code: node:* stays imported, nothing is minified (backends read their stack traces).
    ssr: resolve(root, 'src/sdk/index.ts'),
    target: 'node20',
    minify: false,
    rollupOptions: { output: { format: 'es', entryFileNames: 'sdk.js' } },
  },
};

/** One .d.ts per entry with every type inlined, read with the tsconfig of the entry's own room. */
async function bundleDeclarations(source: string, name: string): Promise<void> {
  const bundle = await rollup({
    input: resolve(root, source),
    plugins: [dts({ tsconfig: resolve(root, dirname(source), 'tsconfig.json'), compilerOptions: { types: [] } })],
  });
  await bundle.write({ file: resolve(packageDir, `${name}.d.ts`), format: 'es' });
  await bundle.close();
}

/** What the package takes from the repository's own package.json, so each is written once. */
interface RootManifest {
  version: string;
  license: string;
  repository: { type: string; url: string };
  engines: { node: string };
}

function manifest(rootManifest: RootManifest): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  for (const { subpath, name } of ENTRIES) exports[subpath] = { types: `./${name}.d.ts`, default: `./${name}.js` };
  exports['./package.json'] = './package.json';
  return {
    name: 'open-video-upload',
    version: rootManifest.version,
    description: 'Upload widget (openUpload) for the video open platform, and an SDK for app backends',
    keywords: ['video', 'upload', 'widget', 'tus', 'resumable', 'sdk'],
    license: rootManifest.license,
    repository: rootManifest.repository,
    type: 'module',
    sideEffects: false,
    exports,
    types: './index.d.ts',
    files: ENTRIES.flatMap(({ name }) => [`${name}.js`, `${name}.d.ts`]),
    engines: rootManifest.engines,
  };
}

rmSync(packageDir, { recursive: true, force: true });
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packageDir, { recursive: true });
mkdirSync(packDir, { recursive: true });

await build({ ...npmModule, build: { ...npmModule.build, outDir: packageDir } });
await build(sdkModule);
for (const { source, name } of ENTRIES) await bundleDeclarations(source, name);

const rootManifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as RootManifest;
writeFileSync(resolve(packageDir, 'package.json'), `${JSON.stringify(manifest(rootManifest), null, 2)}\n`);
copyFileSync(resolve(root, 'LICENSE'), resolve(packageDir, 'LICENSE'));
copyFileSync(resolve(root, 'README.md'), resolve(packageDir, 'README.md'));

execFileSync('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] });
const [tarball, ...extra] = readdirSync(packDir);
if (!tarball || extra.length > 0) throw new Error(`expected one tarball in dist/pack, found ${readdirSync(packDir).join(', ') || 'none'}`);
console.log(`packed dist/pack/${tarball}`);
