import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Send } from './createUploader';

/**
 * Escape inside the overlay's iframe never reaches the host page, so the page handles it (the
 * machine answers an open question with its safe choice, else asks to close). A layout effect,
 * so Escape works from the first paint: a plain effect runs a frame later, while the uploader is
 * already on screen and focusable.
 */
export function useEscapeKey(enabled: boolean, send: Send): void {
  useLayoutEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') send({ type: 'escape' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, send]);
}

/** Paste a file (Ctrl+V of a copied file) to choose it, as a drop would. */
export function usePastedFile(enabled: boolean, send: Send): void {
  useEffect(() => {
    if (!enabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const file = event.clipboardData?.files[0];
      if (!file) return;
      event.preventDefault();
      send({ type: 'choose', file });
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [enabled, send]);
}

/** The popup is a window of its own: closing it mid-upload gets the browser's "Leave site?" prompt. */
export function useLeavePrompt(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onLeave = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium shows the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [enabled]);
}

/** Time passes without progress events while a request waits: render again each second, for the estimate. */
export function useEverySecond(enabled: boolean): void {
  const [, redraw] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => redraw((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [enabled]);
}

/**
 * Focus `target` each time `view` changes after the first render: the button that was pressed is
 * often gone (Pause becomes Resume), and focus must not fall back to <body>.
 */
export function useFocusOnChange(view: string, target: RefObject<HTMLElement>): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    target.current?.focus();
  }, [view, target]);
}
