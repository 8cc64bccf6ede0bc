import type { Ref } from 'preact';
import { useRef } from 'preact/hooks';
import type { RecordSource, UploadSource } from '../../shared/widgetConfig';
import type { Texts } from './i18n';
import type { Send } from './createUploader';

/**
 * The recording sources this browser offers of those the page names. A touch screen records with
 * its own camera app (`capture`), which also works where MediaRecorder does not; elsewhere the
 * camera needs getUserMedia and MediaRecorder, the screen getDisplayMedia too (desktop only).
 */
function offered(sources: readonly UploadSource[]): { record: RecordSource[]; capture: boolean } {
  const touch = matchMedia('(pointer: coarse)').matches;
  const media = navigator.mediaDevices;
  const records = !touch && typeof MediaRecorder === 'function' && !!media?.getUserMedia;
  return {
    record: sources.filter((source): source is RecordSource =>
      source === 'camera' ? records : source === 'screen' && records && !!media.getDisplayMedia,
    ),
    capture: touch && sources.includes('camera'),
  };
}

interface RecordChoiceProps {
  texts: Texts;
  sources: readonly UploadSource[];
  /** The first button, when the page offers no file choice to focus. */
  buttonRef: Ref<HTMLButtonElement> | undefined;
  send: Send;
}

/** "Record with camera" and "Record the screen" beside the file choice. */
export function RecordChoice({ texts: t, sources, buttonRef, send }: RecordChoiceProps) {
  const input = useRef<HTMLInputElement>(null);
  const { record, capture } = offered(sources);
  return (
    <div class="actions record">
      {record.map((source, i) => (
        <button type="button" key={source} ref={i === 0 ? buttonRef : undefined} onClick={() => send({ type: 'record', source })}>
          {source === 'camera' ? t.recordCamera : t.recordScreen}
        </button>
      ))}
      {capture && (
        <>
          <button type="button" ref={buttonRef} onClick={() => input.current?.click()}>
            {t.recordCamera}
          </button>
          <input
            ref={input}
            type="file"
            accept="video/*"
            capture="environment"
            hidden
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) send({ type: 'choose', file });
              event.currentTarget.value = '';
            }}
          />
        </>
      )}
    </div>
  );
}
