import type { OverlayUploadConfig } from '../../shared/widgetConfig';
import { scriptOpenUpload } from './scriptBase';

/** `UploadABoxWidget.openUpload(config)`: the overlay form. */
export const openUpload = scriptOpenUpload<OverlayUploadConfig>('overlay', 'initUploadABoxWidget.js');
