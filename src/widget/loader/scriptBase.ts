import type { UploadWidgetHandle, WidgetForm } from '../../shared/widgetConfig';
import { openWidget } from './openUpload';

/**
 * `openUpload` of a script-tag loader. The service's base URL comes from the script's own `src`
 * ({base}/Scripts/UploadWidget/<file>.js), so a page needs no other setting; it is read while the
 * script first runs, because `document.currentScript` is null once the script has finished.
 */
export function scriptOpenUpload<Config>(form: WidgetForm, fileName: string): (config: Config) => UploadWidgetHandle {
  // `src` as a property is already absolute; empty when the script has none (inline, or a module).
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  const serviceBase = src && new URL('../../', src).href.replace(/\/$/, '');
  return (config) => {
    if (!serviceBase) throw new Error(`openUpload: load ${fileName} with <script src="{service}/Scripts/UploadWidget/${fileName}">`);
    return openWidget(config, { serviceBase, form });
  };
}
