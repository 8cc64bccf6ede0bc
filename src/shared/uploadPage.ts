import type { UploadType, WidgetLanguage } from './widgetConfig';

/** Path of the upload page on the service; the loader opens it in the popup or the iframe. */
export const UPLOAD_PAGE_PATH = '/UploadWidget/Upload';

/** Query parameters the loader puts on the upload page's URL (widget option names where they exist). */
export interface UploadPageQuery {
  appId: string;
  timestamp: string;
  token: string;
  videoId: string;
  uploadType: UploadType;
  needHandleSepcial: 'true' | 'false';
  lang?: WidgetLanguage;
  /** Random per `openUpload` call; every message carries it. */
  channel: string;
  /** The host page's origin as the loader saw it; used only when the app has no `allowedOrigins`. */
  origin: string;
  form: 'popup' | 'overlay';
}

/** An upload already started for this video, so the uploader can resume it when the same file is chosen. */
export interface ResumeState {
  /** Absolute tus upload URL. */
  uploadUrl: string;
  /** Bytes the service holds. */
  offset: number;
  size: number;
  fileName: string;
  /** The browser-computed sample fingerprint sent when the upload was created (see `fileFingerprint`). */
  fingerprint: string;
}

/**
 * What the service embeds in a validated upload page (JSON in a `<script type="application/json"
 * id="upload-boot">`); the uploader reads nothing else from the page.
 */
export interface UploadPageBoot {
  videoId: string;
  channel: string;
  /** Exact origin to post messages to. */
  hostOrigin: string;
  form: 'popup' | 'overlay';
  /** The config's `lang`, else the browser's first language (Accept-Language). */
  lang: WidgetLanguage;
  /** Absolute URL of the tus endpoint. */
  tusEndpoint: string;
  /** Signed, expiring ticket bound to this app and video; sent as the `Upload-Ticket` header on every tus request. */
  ticket: string;
  /** Largest accepted file in bytes for this uploadType. */
  maxFileSize: number;
  resume: ResumeState | null;
}

/** Header that carries the ticket on tus requests. */
export const TICKET_HEADER = 'Upload-Ticket';
