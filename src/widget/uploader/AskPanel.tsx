import type { Ref } from 'preact';

interface AskPanelProps {
  text: string;
  safe: string;
  risky: string;
  safeRef: Ref<HTMLButtonElement>;
  onSafe(): void;
  onRisky(): void;
}

/** An inline question (not a modal: the progress stays in view); the safe answer comes first and holds focus. */
export function AskPanel({ text, safe, risky, safeRef, onSafe, onRisky }: AskPanelProps) {
  return (
    <div class="ask" role="alertdialog" aria-labelledby="ask-text">
      <p id="ask-text">{text}</p>
      <div class="actions">
        <button type="button" ref={safeRef} class="primary" onClick={onSafe}>
          {safe}
        </button>
        <button type="button" onClick={onRisky}>
          {risky}
        </button>
      </div>
    </div>
  );
}
