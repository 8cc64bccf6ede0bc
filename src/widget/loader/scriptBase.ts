import type { UploadWidgetHandle, WidgetForm } from '../../shared/widgetConfig';
import { openWidget, type WidgetTarget } from './openUpload';

/**
 * `openUpload` of a script-tag loader. The service's base URL comes from the script's own `src`
 * ({base}/Scripts/UploadWidget/<file>.js), so a page needs no other setting; it is read while the
 * script first runs, because `document.currentScript` is null once the script has finished. The
 * loader's parts (overlay.js, errorPage.js) come from beside it (the service sends them to any origin, as it does the
 * loader) the first time they are needed; `opener` is the loader's own container (the popup) or the overlay's option checks.
 */
export function scriptOpenUpload<Config>(
  form: WidgetForm,
  fileName: string,
  opener: Pick<WidgetTarget, 'popup' | 'overlay' | 'overlayRules'>,
): (config: Config) => UploadWidgetHandle {
  // `src` as a property is already absolute; empty when the script has none (inline, or a module).
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  const serviceBase = src && new URL('../../', src).href.replace(/\/$/, '');
  return (config) => {
    if (!serviceBase) throw new Error(`openUpload: load ${fileName} with <script src="{service}/Scripts/UploadWidget/${fileName}">`);
    return openWidget(config, {
      serviceBase,
      form,
      ...opener,
      part: (name) => import(/* @vite-ignore */ `${serviceBase}/Scripts/UploadWidget/${name}.js`),
    });
  };
}
