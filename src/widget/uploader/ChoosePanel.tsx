import type { Ref } from 'preact';
import type { ResumeState } from '../../shared/uploadPage';
import type { UploadSource } from '../../shared/widgetConfig';
import type { FileHandle } from './fileHandles';
import { FilePicker } from './FilePicker';
import { formatBytes, formatPercent } from './format';
import type { Texts } from './i18n';
import type { RecordChoice } from './RecordChoice';
import type { Send } from './createUploader';

interface ChoosePanelProps {
  texts: Texts;
  maxFileSize: number;
  /** The page's other restrictions in words (limits.ts), said before a file is chosen so that few are refused. */
  hints: readonly string[];
  /** The service's unfinished upload of this video, offered to continue or discard. */
  stored: ResumeState | null;
  keptHandle: FileHandle | undefined;
  /** Whether a dropped file's handle can be kept (the popup form). */
  keepsHandles: boolean;
  /** Whether the page's `sources` offer the file choice. */
  files: boolean;
  /** The recording choices, when its `sources` ask for any (App.tsx). */
  RecordChoice: typeof RecordChoice | undefined;
  sources: readonly UploadSource[];
  primary: Ref<HTMLButtonElement>;
  send: Send;
}

/** The file choice: the earlier upload if there is one, the picker, and the limits. */
export function ChoosePanel(props: ChoosePanelProps) {
  const { texts: t, maxFileSize, hints, stored, keptHandle, keepsHandles, files, RecordChoice, sources, primary, send } = props;
  const storedPercent = stored ? formatPercent(stored.offset, stored.size) : '';
  return (
    <>
      {stored && (
        <div class="stored">
          <p class="hint">{t.resumeHint(stored.fileName, storedPercent)}</p>
          <button type="button" onClick={() => send({ type: 'askDiscard' })}>
            {t.discard}
          </button>
        </div>
      )}
      {keptHandle && stored && (
        <button type="button" ref={primary} class="primary continue" onClick={() => send({ type: 'continueKept' })}>
          {t.continueFile(keptHandle.name, storedPercent)}
        </button>
      )}
      {files && (
        <FilePicker
          texts={t}
          onFile={(file) => send({ type: 'choose', file })}
          buttonRef={keptHandle ? undefined : primary}
          onDroppedHandle={
            keepsHandles ? (file, handle) => void handle.then((found) => send({ type: 'choose', file, handle: found })) : undefined
          }
        />
      )}
      {RecordChoice && <RecordChoice texts={t} sources={sources} buttonRef={files || keptHandle ? undefined : primary} send={send} />}
      <p class="hint">{t.limit(formatBytes(maxFileSize, t))}</p>
      {hints.map((hint) => (
        <p class="hint" key={hint}>
          {hint}
        </p>
      ))}
    </>
  );
}
