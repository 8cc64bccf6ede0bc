import type { PopupUploadConfig } from '../../shared/widgetConfig';
import { openPopup } from './popup';
import { scriptOpenUpload } from './scriptBase';

/** `UploadWidget.openUpload(config)`: the popup form. Call it from a click, or the popup is blocked (the overlay then opens instead). */
export const openUpload = scriptOpenUpload<PopupUploadConfig>('popup', 'initUploadWidget.js', { popup: openPopup });
