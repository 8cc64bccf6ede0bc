import type { Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { ACCEPT } from './fileChecks';
import { droppedHandle, type FileHandle } from './fileHandles';
import type { Texts } from './i18n';

interface FilePickerProps {
  texts: Texts;
  onFile(file: File): void;
  /** The choose button, for the uploader to focus after a cancel or a refusal. */
  buttonRef?: Ref<HTMLButtonElement> | undefined;
  /** A dropped file's handle (File System Access), for a reopened popup to continue from. */
  onDroppedHandle?: (file: File, handle: Promise<FileHandle | undefined>) => void;
}

/** A real button opening the file dialog, and a drop zone around it; one file at a time. */
export function FilePicker({ texts, onFile, buttonRef, onDroppedHandle }: FilePickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const take = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) onFile(file);
  };

  return (
    <div
      class={dragging ? 'picker dragging' : 'picker'}
      role="group"
      aria-label={texts.dropZone}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        const file = event.dataTransfer?.files[0];
        if (file && onDroppedHandle) onDroppedHandle(file, droppedHandle(event.dataTransfer));
        else take(event.dataTransfer?.files);
      }}
    >
      <button type="button" ref={buttonRef} class="primary" onClick={() => input.current?.click()}>
        {texts.choose}
      </button>
      <span class="hint">{texts.dropHint}</span>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        aria-label={texts.choose}
        hidden
        onChange={(event) => {
          const element = event.currentTarget;
          take(element.files);
          // Choosing the same file again after a refusal or a cancel must fire `change` again.
          element.value = '';
        }}
      />
    </div>
  );
}
