import type { PopupUploadConfig, UploadWidgetHandle } from '../../shared/widgetConfig';
import { openWidget } from './openUpload';
import { missingScriptBase, serviceBaseFromScript } from './scriptBase';

const serviceBase = serviceBaseFromScript(document.currentScript);

/** `UploadWidget.openUpload(config)`: the popup form. Call it from a click, or the popup is blocked (the overlay then opens instead). */
export function openUpload(config: PopupUploadConfig): UploadWidgetHandle {
  if (!serviceBase) throw missingScriptBase('initUploadWidget.js');
  return openWidget(config, { serviceBase, form: 'popup' });
}
