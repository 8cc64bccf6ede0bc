/**
 * Public types of `openUpload(config)`: the spec's option table, spelled as there
 * (`needHandleSepcial` included), plus the npm module's `serviceUrl`.
 */

export type UploadType = 'flash' | 'silverlight';
export type WidgetLanguage = 'en' | 'zh-CN';

/** Sent to `onSuccess` once the service has stored the whole file. */
export interface UploadSuccessInfo {
  videoId: string;
  fileName: string;
  /** Bytes. */
  fileSize: number;
}

/**
 * Why no file was uploaded:
 * - `closed`: the widget was closed before a file was stored;
 * - `rejected`: the chosen file was refused (empty, not a video, too large);
 * - `validation`: the service refused the configuration (see `code`);
 * - `server`: the service refused the upload itself (see `code`).
 */
export type UploadFailureReason = 'closed' | 'rejected' | 'validation' | 'server';

export interface UploadFailureInfo {
  videoId: string;
  reason: UploadFailureReason;
  /** The service's error code when it gave one, e.g. "104". */
  code?: string;
  /** Human-readable, in the widget's language. */
  message: string;
  fileName?: string;
  fileSize?: number;
}

/** Sent to `onError` when a network problem outlasted the automatic retries. */
export interface UploadErrorInfo {
  videoId: string;
  reason: 'network';
  message: string;
  fileName?: string;
  fileSize?: number;
  /** Bytes the service holds; the upload resumes from here when the same file is chosen again. */
  bytesUploaded?: number;
}

export interface UploadEventHandlers {
  /** Called once when the video file is completely stored by the service. */
  onSuccess?: (info: UploadSuccessInfo) => void;
  /** Called once when the upload failed or the widget closed with no file uploaded. */
  onFailure?: (info: UploadFailureInfo) => void;
  /** Called when a network problem outlasted the retries. */
  onError?: (info: UploadErrorInfo) => void;
}

/** Options shared by both forms (spec, Upload widget). */
export interface BaseUploadConfig extends UploadEventHandlers {
  /** Application identifier. Required. */
  appId: string;
  /** Whole seconds since 1970 (UTC), as a decimal string, as signed by the app's backend. Required. */
  timestamp: string;
  /** MD5(timestamp + AppSecret) in lowercase hex, computed by the app's backend. Required. */
  token: string;
  /** The VideoId returned by `/Api/Video/Post` with SourceFileGetType 1. Required. */
  videoId: string;
  /**
   * Selects the size limit only (Flash and Silverlight are gone; both use the same resumable uploader).
   * @default 'flash'
   */
  uploadType?: UploadType;
  /** true: the service keeps the source as the only play file instead of transcoding. @default false */
  needHandleSepcial?: boolean;
  /** Text language. @default the browser's language: Chinese when it starts with "zh", else English */
  lang?: WidgetLanguage;
}

/** Overlay-only options. */
export interface OverlayOptions {
  /** CSS length from the left of the covered window, e.g. "120px" or "10%". @default centered */
  left?: string;
  /** CSS length from the top of the covered window. @default centered */
  top?: string;
  /** Cover the topmost window when it is reachable (same origin); false keeps the layer in the current frame. @default true */
  isTop?: boolean;
}

export type PopupUploadConfig = BaseUploadConfig;
export type OverlayUploadConfig = BaseUploadConfig & OverlayOptions;

/** The npm module also needs to know where the service is; the script tags find it from their own `src`. */
export interface ModuleOptions {
  /** The service's base URL, e.g. "https://video.example.com". Required for the npm module. */
  serviceUrl: string;
  /** Which container to open. @default 'popup' */
  form?: 'popup' | 'overlay';
}

/** What `openUpload` returns: a handle to close the widget from code. */
export interface UploadWidgetHandle {
  close(): void;
}

/** The npm module's `openUpload` argument: the form picks which options are allowed (left/top/isTop only with the overlay). */
export type ModuleUploadConfig =
  | (PopupUploadConfig & ModuleOptions & { form?: 'popup' })
  | (OverlayUploadConfig & ModuleOptions & { form: 'overlay' });
