import { UPLOAD_PAGE_PATH, type UploadPageQuery } from '../../shared/uploadPage';
import type { ResolvedConfig, WidgetForm } from './validateConfig';

/** 128 random bits as hex: the per-open channel id every message must carry. */
export function randomChannel(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The upload page's address; `hostOrigin` is the origin of the window that will hold the container. */
export function uploadPageUrl(serviceBase: string, config: ResolvedConfig, channel: string, hostOrigin: string, form: WidgetForm): string {
  const query: UploadPageQuery = {
    appId: config.appId,
    timestamp: config.timestamp,
    token: config.token,
    videoId: config.videoId,
    uploadType: config.uploadType,
    needHandleSepcial: config.needHandleSepcial ? 'true' : 'false',
    ...(config.lang ? { lang: config.lang } : {}),
    channel,
    origin: hostOrigin,
    form,
  };
  return `${serviceBase}${UPLOAD_PAGE_PATH}?${new URLSearchParams({ ...query })}`;
}
