import type { Ref } from 'preact';
import { VideoStatus } from '../../shared/videoStatus';
import type { Texts } from './i18n';
import type { Send } from './createUploader';

interface DonePanelProps {
  texts: Texts;
  /** As the service last reported it; undefined until it answers. */
  videoStatus: number | undefined;
  primary: Ref<HTMLButtonElement>;
  send: Send;
}

/** After the upload: how processing goes (announced politely), and Close. */
export function DonePanel({ texts: t, videoStatus, primary, send }: DonePanelProps) {
  const failed = videoStatus === VideoStatus.DownloadFailed || videoStatus === VideoStatus.TranscodingFailed;
  return (
    <>
      <p class="hint" aria-live="polite">
        {videoStatus === VideoStatus.Normal ? t.processingReady : failed ? t.processingFailed : t.processingNext}
      </p>
      <div class="actions">
        <button type="button" ref={primary} class="primary" onClick={() => send({ type: 'closeRequested' })}>
          {t.close}
        </button>
      </div>
    </>
  );
}
