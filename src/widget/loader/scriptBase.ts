import type { UploadWidgetHandle } from '../../shared/widgetConfig';
import { openWidget } from './openUpload';
import type { WidgetForm } from './validateConfig';

/**
 * `openUpload` of a script-tag loader. The service's base URL comes from the script's own `src`
 * ({base}/Scripts/UploadWidget/<file>.js), so a page needs no other setting; it is read while the
 * script first runs, because `document.currentScript` is null once the script has finished.
 */
export function scriptOpenUpload<Config>(form: WidgetForm, fileName: string): (config: Config) => UploadWidgetHandle {
  const script = document.currentScript;
  const src = script?.getAttribute('src');
  const serviceBase = src && new URL('../../', new URL(src, script!.ownerDocument.baseURI)).href.replace(/\/$/, '');
  return (config) => {
    if (!serviceBase) throw new Error(`openUpload: load ${fileName} from the service, with <script src="{service}/Scripts/UploadWidget/${fileName}">`);
    return openWidget(config, { serviceBase, form });
  };
}
