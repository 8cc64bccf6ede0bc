/**
 * The npm package's own README (src/widget/README.md, for the people who install the package, not
 * the service's README) with its figures filled in from this build, so they cannot go stale:
 * `{{name}}` placeholders for the loaders' and modules' sizes, the first overlay open, and the
 * repository's address for links that must work on npm, where docs/ is not shipped.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliBytes, firstOverlayOpenFiles, gzipBytes } from './widgetSizes';

const root = resolve(import.meta.dirname, '..');
export const PACKAGE_README_TEMPLATE = 'src/widget/README.md';

const bytes = (count: number) => `${count.toLocaleString('en-US')} B`;

/** `git+https://github.com/owner/name.git` → `https://github.com/owner/name`. */
function webAddress(repositoryUrl: string): string {
  return repositoryUrl.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** The package README as `npm run pack:widget` ships it; run after the build and the package's own files are written. */
export function packageReadme(): string {
  const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { license: string; repository: { url: string } };
  const repository = webAddress(manifest.repository.url);
  const values: Record<string, string> = {
    repository,
    docs: `${repository}/blob/main/docs`,
    license: manifest.license,
    popupLoaderGzip: bytes(gzipBytes('Scripts/UploadWidget/initUploadWidget.js')),
    overlayLoaderGzip: bytes(gzipBytes('Scripts/UploadWidget/initUploadABoxWidget.js')),
    moduleGzip: bytes(gzipBytes('package/index.js')),
    sdkGzip: bytes(gzipBytes('package/sdk.js')),
    // The build's brotli copies are what the service sends; a file without one goes as it is.
    firstOpenBrotli: bytes(
      firstOverlayOpenFiles().reduce((sum, file) => sum + (brotliBytes(file) ?? readFileSync(resolve(root, 'dist', file)).length), 0),
    ),
  };
  return readFileSync(resolve(root, PACKAGE_README_TEMPLATE), 'utf8').replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${PACKAGE_README_TEMPLATE}: unknown placeholder ${placeholder}`);
    return value;
  });
}
