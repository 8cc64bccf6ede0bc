import type { OverlayUploadConfig } from '../../shared/widgetConfig';
import { OVERLAY_RULES } from './optionRules';
import { scriptOpenUpload } from './scriptBase';

/** `UploadABoxWidget.openUpload(config)`: the overlay form (its layer comes from the service as overlay.js, see LoaderParts in openUpload.ts). */
export const openUpload = scriptOpenUpload<OverlayUploadConfig>('overlay', 'initUploadABoxWidget.js', { overlayRules: OVERLAY_RULES });
