import {
  PROCESSED_STATUSES,
  UPLOAD_STATES,
  type UploadErrorInfo,
  type UploadFailureInfo,
  type UploadFailureReason,
  type UploadProcessedInfo,
  type UploadProgressInfo,
  type UploadStateInfo,
  type UploadSuccessInfo,
} from './widgetConfig';

/**
 * The postMessage protocol between the upload page (service origin) and the loader (host page).
 * Both ends import this module. Every message carries the protocol tag and the per-open
 * channel id; a receiver drops anything whose origin, source, tag or channel does not match.
 */
export const PROTOCOL = 'open-upload/1';

interface Envelope<T extends string> {
  protocol: typeof PROTOCOL;
  channel: string;
  type: T;
}

/** Page → loader. */
export type PageMessage =
  | (Envelope<'ready'> & { valid: boolean })
  | (Envelope<'success'> & { info: UploadSuccessInfo })
  | (Envelope<'failure'> & { info: UploadFailureInfo })
  | (Envelope<'error'> & { info: UploadErrorInfo })
  | (Envelope<'uploading'> & { busy: boolean })
  /** Already throttled by the page to at most 10 a second (the loader relays each as it comes). */
  | (Envelope<'progress'> & { info: UploadProgressInfo })
  | (Envelope<'state'> & { info: UploadStateInfo })
  | (Envelope<'processed'> & { info: UploadProcessedInfo })
  /** The user asked to close from inside the page (Escape in the overlay's iframe, which the host cannot see). */
  | Envelope<'close'>;

/**
 * Loader → page: `close`, the widget is closing (stop sending so the offset stays clean);
 * `askClose`, the person pressed × or Escape on the host side while the page reported bytes
 * moving, so the page asks whether to stop (and answers with its own `close` if so).
 */
export type HostMessage = Envelope<'close'> | Envelope<'askClose'>;
const HOST_TYPES: unknown[] = ['close', 'askClose'] satisfies HostMessage['type'][];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The type is left to the caller, which compares it with the types it knows. */
function isEnvelope(value: unknown, channel: string): value is Record<string, unknown> {
  return isRecord(value) && value.protocol === PROTOCOL && value.channel === channel;
}

const FAILURE_REASONS: unknown[] = ['closed', 'rejected', 'validation', 'server'] satisfies UploadFailureReason[];

function isOptional(value: unknown, type: 'string' | 'number'): boolean {
  return value === undefined || typeof value === type;
}

/** Common fields of every info object; the optional ones are checked too, since handlers receive `info` as is. */
function isInfo(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.videoId === 'string' &&
    isOptional(value.fileName, 'string') &&
    isOptional(value.fileSize, 'number') &&
    isOptional(value.code, 'string') &&
    isOptional(value.bytesUploaded, 'number') &&
    isOptional(value.requestId, 'string') &&
    isOptional(value.hint, 'string')
  );
}

/** Type guard for page messages on one channel; `data` is untrusted. */
export function isPageMessage(data: unknown, channel: string): data is PageMessage {
  if (!isEnvelope(data, channel)) return false;
  switch (data.type) {
    case 'ready':
      return typeof data.valid === 'boolean';
    case 'uploading':
      return typeof data.busy === 'boolean';
    case 'success':
      return isInfo(data.info) && typeof data.info.fileName === 'string' && typeof data.info.fileSize === 'number';
    case 'close':
      return true;
    case 'failure':
      return isInfo(data.info) && FAILURE_REASONS.includes(data.info.reason) && typeof data.info.message === 'string';
    case 'error':
      return isInfo(data.info) && data.info.reason === 'network' && typeof data.info.message === 'string';
    case 'progress':
      return isRecord(data.info) && typeof data.info.bytesUploaded === 'number' && typeof data.info.bytesTotal === 'number';
    case 'state':
      return isRecord(data.info) && UPLOAD_STATES.includes(data.info.state as never);
    case 'processed':
      return isInfo(data.info) && PROCESSED_STATUSES.includes(data.info.status as never);
    default:
      return false;
  }
}

export function isHostMessage(data: unknown, channel: string): data is HostMessage {
  return isEnvelope(data, channel) && HOST_TYPES.includes(data.type);
}

/** Distributive omit, so each member of the union keeps its own fields. */
export type WithoutEnvelope<T> = T extends unknown ? Omit<T, 'protocol' | 'channel'> : never;

export function pageMessage(channel: string, message: WithoutEnvelope<PageMessage>): PageMessage {
  return { protocol: PROTOCOL, channel, ...message } as PageMessage;
}

export function hostMessage(channel: string, type: HostMessage['type']): HostMessage {
  return { protocol: PROTOCOL, channel, type };
}
