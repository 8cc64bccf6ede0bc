/**
 * `npm run pack:widget`: the publishable package `open-video-upload` in dist/package, packed to
 * the one tarball in dist/pack.
 *
 * The repository's own package.json stays private (it is the service, with its dependencies);
 * the package is generated beside it with its own package.json and no dependencies at all:
 *   index.js + index.d.ts   the widget (`openUpload`), ESM for bundlers and browsers
 *   sdk.js + sdk.d.ts       `open-video-upload/sdk` for app backends (Node >= 20.19)
 *   README.md               src/widget/README.md, its size figures measured on this build
 *   react.js + react.d.ts   `open-video-upload/react` (React 18 or 19, an optional peer)
 *   element.js + element.d.ts  `open-video-upload/element`, the `<video-upload>` custom element
 * Each entry has one bundled declaration file with no relative imports, so the types resolve the
 * same under `bundler`, `node16`, `nodenext` and `node10` (where `open-video-upload/sdk` finds
 * sdk.d.ts at the package root, so no `typesVersions` is needed).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { build, type InlineConfig } from 'vite';
import { dist, npmModule } from '../vite.config';
import { packageReadme } from './packageReadme';

const root = resolve(import.meta.dirname, '..');
const packageDir = resolve(dist, 'package');
const packDir = resolve(dist, 'pack');

/** The package's entries: subpath → source and file name (without extension) in the package. */
const ENTRIES = [
  { subpath: '.', source: 'src/widget/index.ts', name: 'index' },
  { subpath: './sdk', source: 'src/sdk/index.ts', name: 'sdk' },
  { subpath: './react', source: 'src/widget/react/index.ts', name: 'react' },
  { subpath: './element', source: 'src/widget/element/index.ts', name: 'element' },
] as const;

/**
 * The framework wrappers, each its own file built on the main entry: they import `./index.js`
 * rather than carry a second copy of the widget, and React stays the app's own. An app that does
 * not import them loads none of their bytes.
 */
const WRAPPERS: string[] = ['react', 'element'] satisfies (typeof ENTRIES)[number]['name'][];

function wrapperModule(source: string, name: string): InlineConfig {
  const widget = resolve(root, 'src/widget/index.ts');
  return {
    ...npmModule,
    build: {
      ...npmModule.build,
      outDir: packageDir,
      lib: { entry: resolve(root, source), formats: ['es'], fileName: () => `${name}.js` },
      rollupOptions: {
        external: (id) => id === 'react' || id === widget,
        output: {
          paths: { [widget]: './index.js' },
          // Next.js's app router renders a module with hooks only on the client when it says so;
          // the directive must be the file's first statement, so it cannot come from the source.
          banner: name === 'react' ? "'use client';" : undefined,
        },
      },
    },
  };
}

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

/** The tsconfig of the room a source lives in: the nearest one up from its folder (react/ and element/ are the widget's). */
function roomTsconfig(source: string): string {
  for (let dir = resolve(root, dirname(source)); dir.startsWith(root); dir = dirname(dir)) {
    if (existsSync(join(dir, 'tsconfig.json'))) return join(dir, 'tsconfig.json');
  }
  throw new Error(`no tsconfig.json above ${source}`);
}

/** One .d.ts per entry with every type inlined, read with the tsconfig of the entry's own room. */
async function bundleDeclarations(source: string, name: string): Promise<void> {
  const bundle = await rollup({
    input: resolve(root, source),
    plugins: [dts({ tsconfig: roomTsconfig(source), compilerOptions: { types: [] } })],
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
    // Importing the element's module defines <video-upload>: a bundler must keep that import.
    sideEffects: ['./element.js'],
    exports,
    types: './index.d.ts',
    files: ENTRIES.flatMap(({ name }) => [`${name}.js`, `${name}.d.ts`]),
    // For `open-video-upload/react` only: every other entry works without React.
    peerDependencies: { react: '^18.0.0 || ^19.0.0', '@types/react': '^18.0.0 || ^19.0.0' },
    peerDependenciesMeta: { react: { optional: true }, '@types/react': { optional: true } },
    engines: rootManifest.engines,
  };
}

// The package README's figures are measured on the browser build: make it first when it is missing
// or older than a source (as `npm start` does), so `npm run pack:widget` alone works on a fresh clone.
execFileSync(process.execPath, [resolve(root, 'scripts/start.mjs'), '--build-only'], { stdio: ['ignore', 'inherit', 'inherit'] });

rmSync(packageDir, { recursive: true, force: true });
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packageDir, { recursive: true });
mkdirSync(packDir, { recursive: true });

await build({ ...npmModule, build: { ...npmModule.build, outDir: packageDir } });
await build(sdkModule);
for (const { source, name } of ENTRIES) if (WRAPPERS.includes(name)) await build(wrapperModule(source, name));
for (const { source, name } of ENTRIES) await bundleDeclarations(source, name);

const rootManifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as RootManifest;
writeFileSync(resolve(packageDir, 'package.json'), `${JSON.stringify(manifest(rootManifest), null, 2)}\n`);
copyFileSync(resolve(root, 'LICENSE'), resolve(packageDir, 'LICENSE'));
// Its own README, for people who install the package (the repository's README is the service's).
writeFileSync(resolve(packageDir, 'README.md'), packageReadme());

execFileSync('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] });
const [tarball, ...extra] = readdirSync(packDir);
if (!tarball || extra.length > 0) throw new Error(`expected one tarball in dist/pack, found ${readdirSync(packDir).join(', ') || 'none'}`);
console.log(`packed dist/pack/${tarball}`);
