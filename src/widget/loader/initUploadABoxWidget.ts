import type { OverlayUploadConfig } from '../../shared/widgetConfig';
import { OVERLAY_RULES } from './overlayRules';
import { scriptOpenUpload } from './scriptBase';

/** `UploadABoxWidget.openUpload(config)`: the overlay form (its layer comes with the loader's extras, src/widget/loader/extras.ts). */
export const openUpload = scriptOpenUpload<OverlayUploadConfig>('overlay', 'initUploadABoxWidget.js', { overlayRules: OVERLAY_RULES });
