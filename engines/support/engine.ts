/**
 * One small vocabulary for driving the widget in a browser engine other than Chromium, so the
 * same checks run in each (suite.ts). A selector is CSS, or XPath when it starts with `//`.
 * Clicks and keys are the driver's own input (trusted events), so the popup counts as opened by
 * a user.
 */
export interface Engine {
  readonly name: string;
  /** Loads `url` as the host page, which becomes the current context. */
  open(url: string): Promise<void>;
  click(selector: string): Promise<void>;
  /** A key to whatever has focus. */
  press(key: 'Enter' | 'Escape'): Promise<void>;
  /** Puts a file on a file input, as a person choosing it would. */
  setFile(selector: string, path: string): Promise<void>;
  /** Waits until the current context's visible text includes `text`. */
  waitForText(text: string, timeoutMs?: number): Promise<void>;
  /** Evaluates a JavaScript expression in the current context and returns its (JSON) value. */
  evaluate<T>(expression: string): Promise<T>;
  /** The overlay's iframe (reached through its open shadow root) becomes the current context. */
  enterOverlay(): Promise<void>;
  /** The popup window, once it is open, becomes the current context. */
  enterPopup(): Promise<void>;
  /** Back to the host page. */
  leave(): Promise<void>;
  quit(): Promise<void>;
}

export const TIMEOUT_MS = 30_000;

/** Polls `probe` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}
