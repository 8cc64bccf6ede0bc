import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STATUS_PATH, UPLOAD_PAGE_PATH } from '../../shared/uploadPage';
import { languageOf } from '../../shared/widgetConfig';
import type { ServiceContext } from '../context';
import type { Route } from '../http/router';
import { IMMUTABLE, SHORT_LIVED, staticDirectory, staticFile } from '../static/staticFiles';
import { TUS_PATH } from '../upload/tusEndpoint';
import type { UploadService } from '../upload/uploadService';
import { ASSETS_PATH, ERROR_SCRIPT_PATH } from './pages';
import { statusHandler } from './statusHandler';
import { uploadPageHandler } from './uploadPageHandler';

const BUILD_HINT = 'the widget is not built: run `npm run build`';
const LOADER_PATH = '/Scripts/UploadWidget';

/**
 * The script loaders ask for their words as `texts-<tag>.js`, with the browser's language tag
 * when the config names no language we speak: the answer is the words of the language the
 * upload page would pick for that tag (languageOf), so the loaders carry no list of languages
 * to choose from. docs/widget.md ("Languages") says why.
 */
function loaderFile(name: string): string {
  const tag = /^texts-(.*)\.js$/.exec(name)?.[1];
  return tag === undefined ? name : `texts-${languageOf(tag)}.js`;
}

/**
 * The upload widget's paths: the loader scripts (any site may load them; fixed URLs, so cached
 * briefly), the upload page and its assets (built by vite into DIST_DIR under content-hashed
 * names, so cached for good), the error page's script, and the tus endpoint.
 */
export function widgetRoutes(service: ServiceContext, uploads: UploadService): Route[] {
  const dist = service.config.distDir;
  if (!existsSync(dist)) service.log.warn(`${dist} is missing: ${BUILD_HINT}`);
  const errorScript = fileURLToPath(new URL('./assets/error.js', import.meta.url));
  return [
    {
      method: 'GET',
      path: `${LOADER_PATH}/*`,
      handler: staticDirectory(
        `${LOADER_PATH}/*`,
        join(dist, 'Scripts', 'UploadWidget'),
        {
          crossOrigin: true,
          missingHint: BUILD_HINT,
          cacheControl: SHORT_LIVED,
        },
        loaderFile,
      ),
    },
    {
      method: 'GET',
      path: ERROR_SCRIPT_PATH,
      handler: staticFile(errorScript, { crossOrigin: false, missingHint: '', cacheControl: SHORT_LIVED }),
    },
    {
      method: 'GET',
      path: `${ASSETS_PATH}/*`,
      handler: staticDirectory(`${ASSETS_PATH}/*`, join(dist, 'upload'), {
        crossOrigin: false,
        missingHint: BUILD_HINT,
        cacheControl: IMMUTABLE,
      }),
    },
    { method: 'GET', path: UPLOAD_PAGE_PATH, handler: uploadPageHandler(service, uploads) },
    { method: 'GET', path: STATUS_PATH, handler: statusHandler(service, uploads) },
    { method: 'ANY', path: `${TUS_PATH}/*`, handler: uploads.tusHandler },
  ];
}
