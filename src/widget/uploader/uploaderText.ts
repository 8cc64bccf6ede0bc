import { formatPercent } from './format';
import type { Texts } from './i18n';
import type { FileHandle } from './fileHandles';
import type { Question } from './machine';
import type { UploaderModel } from './createUploader';

/** The status line (announced by screen readers) for each state. */
export function statusLine(state: UploaderModel['state'], t: Texts): string {
  switch (state.kind) {
    case 'idle':
    case 'failed':
    case 'cancelled':
      return '';
    // The recorder's states: its chunk words them (recorder/RecordPanel.tsx, recordingStatus).
    case 'permission':
    case 'preview':
    case 'countdown':
    case 'recording':
    case 'review':
      return '';
    case 'checking':
      return t.preparing(state.file.name);
    case 'uploading':
    case 'finishing':
      return t.uploading(state.file.name);
    case 'offline':
    case 'retrying':
      return t.waitingForNetwork(state.file.name);
    case 'paused':
      return t.paused(state.file.name);
    case 'done':
      return t.success(state.file.name);
  }
}

/** The words of an open question and of its two answers. */
export function questionWords(
  question: Question<File, FileHandle>,
  model: UploaderModel,
  t: Texts,
): { text: string; safe: string; risky: string } {
  const { state, stored } = model;
  const storedPercent = stored ? formatPercent(stored.offset, stored.size) : '';
  switch (question.kind) {
    case 'close':
      return {
        text: t.askClose('sent' in state ? formatPercent(state.sent, state.file.size) : ''),
        safe: t.keepUploading,
        risky: t.stopAndClose,
      };
    case 'discard':
      return { text: t.askDiscard(stored?.fileName ?? '', storedPercent), safe: t.keepStored, risky: t.discard };
    case 'replace':
      return { text: t.askReplace(stored?.fileName ?? '', storedPercent, question.file.name), safe: t.keepStored, risky: t.replace };
  }
}
