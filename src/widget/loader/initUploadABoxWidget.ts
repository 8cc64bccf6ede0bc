import type { OverlayUploadConfig, UploadWidgetHandle } from '../../shared/widgetConfig';
import { openWidget } from './openUpload';
import { missingScriptBase, serviceBaseFromScript } from './scriptBase';

const serviceBase = serviceBaseFromScript(document.currentScript);

/** `UploadABoxWidget.openUpload(config)`: the overlay form. */
export function openUpload(config: OverlayUploadConfig): UploadWidgetHandle {
  if (!serviceBase) throw missingScriptBase('initUploadABoxWidget.js');
  return openWidget(config, { serviceBase, form: 'overlay' });
}
