import { useRef, useState } from 'preact/hooks';
import { ACCEPT } from './fileChecks';
import type { Texts } from './i18n';

interface FilePickerProps {
  texts: Texts;
  onFile(file: File): void;
}

/** A real button opening the file dialog, and a drop zone around it; one file at a time. */
export function FilePicker({ texts, onFile }: FilePickerProps) {
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
        take(event.dataTransfer?.files);
      }}
    >
      <button type="button" class="primary" onClick={() => input.current?.click()}>
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
