import { isHostMessage, pageMessage, type HostMessage, type PageMessage, type WithoutEnvelope } from '../../shared/messages';
import type { UploadPageBoot } from '../../shared/uploadPage';

/** The uploader's only way out to the host page; tests pass a recording double. */
export interface HostLink {
  post(message: WithoutEnvelope<PageMessage>): void;
  /** Called with each host message (`close`: the widget is closing; `askClose`: ask before closing); returns the function that stops listening. */
  onHost(listener: (type: HostMessage['type']) => void): () => void;
}

/**
 * Talks to the loader's window: the opener of the popup, or the parent of the iframe. Posts only to
 * the exact host origin the service validated, and hears only that window on this channel.
 */
export function connectToHost(boot: Pick<UploadPageBoot, 'form' | 'channel' | 'hostOrigin'>, win: Window = window): HostLink {
  const target: Window | null = boot.form === 'popup' ? win.opener : win.parent === win ? null : win.parent;
  return {
    post(message) {
      target?.postMessage(pageMessage(boot.channel, message), boot.hostOrigin);
    },
    onHost(listener) {
      const onMessage = (event: MessageEvent) => {
        if (target && event.source === target && event.origin === boot.hostOrigin && isHostMessage(event.data, boot.channel))
          listener(event.data.type);
      };
      win.addEventListener('message', onMessage);
      return () => win.removeEventListener('message', onMessage);
    },
  };
}
