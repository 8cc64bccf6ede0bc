import { UPLOAD_PAGE_PATH } from '../../shared/uploadPage';
import { PAGE_OPTIONS, type ResolvedConfig, type WidgetForm } from './validateConfig';

/** 128 random bits as hex: the per-open channel id every message must carry. */
export function randomChannel(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The upload page's address (query: UploadPageQuery); `hostOrigin` is the origin of the window
 * that will hold the container. An absent `lang` stays off the address.
 */
export function uploadPageUrl(serviceBase: string, config: ResolvedConfig, channel: string, hostOrigin: string, form: WidgetForm): string {
  const query = new URLSearchParams({ channel, origin: hostOrigin, form });
  for (const key of PAGE_OPTIONS) if (config[key] !== undefined) query.set(key, `${config[key]}`);
  return `${serviceBase}${UPLOAD_PAGE_PATH}?${query}`;
}
