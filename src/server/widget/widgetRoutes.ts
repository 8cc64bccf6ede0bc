import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPLOAD_PAGE_PATH } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import type { Route } from '../http/router';
import { staticDirectory, staticFile } from '../static/staticFiles';
import { TUS_PATH } from '../upload/tusEndpoint';
import type { UploadService } from '../upload/uploadService';
import { ASSETS_PATH, ERROR_SCRIPT_PATH } from './pages';
import { uploadPageHandler } from './uploadPageHandler';

const BUILD_HINT = 'the widget is not built: run `npm run build`';
const LOADER_PATH = '/Scripts/UploadWidget';

/**
 * The upload widget's paths: the loader scripts (any site may load them), the upload page and its
 * assets (built by vite into DIST_DIR), the error page's script, and the tus endpoint.
 */
export function widgetRoutes(service: ServiceContext, uploads: UploadService): Route[] {
  const dist = service.config.distDir;
  if (!existsSync(dist)) service.log.warn(`${dist} is missing: ${BUILD_HINT}`);
  const errorScript = fileURLToPath(new URL('./assets/error.js', import.meta.url));
  return [
    {
      method: 'GET',
      path: `${LOADER_PATH}/*`,
      handler: staticDirectory(`${LOADER_PATH}/*`, join(dist, 'Scripts', 'UploadWidget'), { crossOrigin: true, missingHint: BUILD_HINT }),
    },
    { method: 'GET', path: ERROR_SCRIPT_PATH, handler: staticFile(errorScript, { crossOrigin: false, missingHint: '' }) },
    {
      method: 'GET',
      path: `${ASSETS_PATH}/*`,
      handler: staticDirectory(`${ASSETS_PATH}/*`, join(dist, 'upload'), { crossOrigin: false, missingHint: BUILD_HINT }),
    },
    { method: 'GET', path: UPLOAD_PAGE_PATH, handler: uploadPageHandler(service, uploads) },
    { method: 'ANY', path: `${TUS_PATH}/*`, handler: uploads.tusHandler },
  ];
}
