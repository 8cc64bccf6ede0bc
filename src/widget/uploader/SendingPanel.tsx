import type { Ref } from 'preact';
import type { Texts } from './i18n';
import { isMoving } from './machine';
import { ProgressPanel } from './ProgressPanel';
import type { Estimate } from './speedMeter';
import type { Send, UploaderModel } from './createUploader';

type SendingState = Extract<UploaderModel['state'], { sent: number }>;

interface SendingPanelProps {
  texts: Texts;
  state: SendingState;
  estimate: Estimate | null;
  /** A question is open: its answers replace these buttons. */
  asking: boolean;
  primary: Ref<HTMLButtonElement>;
  send: Send;
}

/** The bar and what can be done with a file on its way: Pause, Resume or Try again, and Cancel. */
export function SendingPanel({ texts: t, state, estimate, asking, primary, send }: SendingPanelProps) {
  const waiting = state.kind === 'offline' || state.kind === 'retrying';
  return (
    <>
      <ProgressPanel
        texts={t}
        fileName={state.file.name}
        sent={state.sent}
        total={state.file.size}
        estimate={isMoving(state) ? estimate : null}
      />
      <div class="actions" hidden={asking}>
        {isMoving(state) && (
          <button type="button" ref={primary} onClick={() => send({ type: 'pause' })}>
            {t.pause}
          </button>
        )}
        {(state.kind === 'paused' || waiting) && (
          <button type="button" ref={primary} class="primary" onClick={() => send({ type: 'resume' })}>
            {waiting ? t.retry : t.resume}
          </button>
        )}
        <button type="button" onClick={() => send({ type: 'cancel' })}>
          {t.cancel}
        </button>
      </div>
    </>
  );
}
