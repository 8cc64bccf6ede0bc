/**
 * `npm run build`: every browser file the service serves and the npm module (configurations in
 * vite.config.ts), then the service itself as JavaScript in dist/server (what `npm start` runs
 * with plain node), and brotli and gzip copies of the files browsers load. The publishable package, with its declarations, is `npm run pack:widget`
 * (scripts/packWidget.ts).
 */
import { cp, rm } from 'node:fs/promises';
import { build as bundle } from 'esbuild';
import { resolve } from 'node:path';
import { build } from 'vite';
import { dist, loaderScripts, npmModule, uploaderPage } from '../vite.config';
import { precompress } from './precompress';
import { WIDGET_LANGUAGES } from '../src/shared/widgetConfig';

const root = resolve(import.meta.dirname, '..');

/**
 * The service, the demo and the operator's command line, each one ES module with every package left to node_modules: the
 * sources import without file extensions (moduleResolution Bundler), which node alone cannot run.
 * Both sit in dist/server so files found from their own location (assets/error.js) are where the
 * sources expect them.
 */
async function bundleService(): Promise<void> {
  await bundle({
    entryPoints: {
      main: resolve(root, 'src/server/main.ts'),
      demo: resolve(root, 'demo/server.ts'),
      cli: resolve(root, 'src/server/cli/main.ts'),
    },
    outdir: resolve(dist, 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await cp(resolve(root, 'src/server/widget/assets'), resolve(dist, 'server/assets'), { recursive: true });
}

/** Each language's locale module's constant prefix (`JA` for ja, `PT_BR` for pt-BR). */
const constantOf = (lang: string) => lang.toUpperCase().replace('-', '_');

/**
 * The loaders' parts that not every open needs (LoaderParts in src/widget/loader/openUpload.ts),
 * ES modules beside them that they import from the service when needed: the overlay, the error
 * page, and per language `texts-<lang>`, that language's loader words alone (a virtual entry
 * that takes them from its locale module, whose page texts are left out as unused).
 * esbuild rather than Vite: Vite leaves an ES library's whitespace unminified, and the overlay's
 * bytes are on the path of every overlay's first open.
 */
async function bundleLoaderParts(): Promise<void> {
  const texts = Object.fromEntries(WIDGET_LANGUAGES.map((lang) => [`texts-${lang}`, `texts:${lang}`]));
  await bundle({
    entryPoints: {
      overlay: resolve(root, 'src/widget/loader/overlay.ts'),
      errorPage: resolve(root, 'src/widget/loader/errorPage.ts'),
      ...texts,
    },
    outdir: resolve(dist, 'Scripts/UploadWidget'),
    bundle: true,
    minify: true,
    format: 'esm',
    // Unlike the classic loader scripts (vite.config.ts: non-ASCII as \u escapes, whatever charset
    // the host page has), module scripts are always decoded as UTF-8, and raw UTF-8 takes a third
    // of the escapes' bytes for the words of Chinese, Japanese, Korean and Arabic.
    charset: 'utf8',
    target: 'es2020',
    logLevel: 'warning',
    plugins: [
      {
        name: 'loader-words',
        setup(build) {
          build.onResolve({ filter: /^texts:/ }, ({ path }) => ({ path: path.slice('texts:'.length), namespace: 'loader-words' }));
          build.onLoad({ filter: /.*/, namespace: 'loader-words' }, ({ path }) => ({
            contents: `import { ${constantOf(path)}_WORDS as words } from './${path}';
import { loaderTexts } from '../../../widget/loader/texts';
export const texts = (strings: unknown) => loaderTexts(words, '${path}', strings);`,
            resolveDir: resolve(root, 'src/shared/i18n/locales'),
            loader: 'ts',
          }));
        },
      },
    ],
  });
}

await rm(dist, { recursive: true, force: true });
// One at a time: the machine is small and the builds are quick.
for (const config of [...loaderScripts, uploaderPage, npmModule]) {
  await build(config);
}
await bundleLoaderParts();
await bundleService();
for (const dir of ['Scripts/UploadWidget', 'upload', 'server/assets']) await precompress(resolve(dist, dir));
console.log('built dist/Scripts/UploadWidget, dist/upload, dist/npm, dist/server');
