import { placeholdersOf, type StringKey, type WidgetStrings } from './strings';
import { stringTable } from './tables';

/** Longest text the `strings` option takes: it travels on the upload page's address. */
export const MAX_STRING_LENGTH = 500;

const ENGLISH = stringTable('en');

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

const listed = (names: string[]) => (names.length ? names.map((name) => `{${name}}`).join(', ') : 'none');

/**
 * The service's check of the `strings` option as the loader sent it (JSON on the page's query):
 * the texts, or what is wrong, worded for `Invalid Parameter: …` (106). A text may leave out a
 * placeholder, not invent one: `{nmae}` would show as written.
 */
export function decodeStrings(raw: string): { ok: true; strings: WidgetStrings } | { ok: false; detail: string } {
  const problem = (detail: string) => ({ ok: false as const, detail: `strings${detail}` });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return problem(' must be an object of texts by key (JSON on the page address)');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return problem(` must be an object of texts by key, got ${describe(value)}`);
  for (const [key, text] of Object.entries(value)) {
    if (!Object.hasOwn(ENGLISH, key)) return problem(`.${key} is not a text key (docs/widget.md lists them)`);
    if (typeof text !== 'string') return problem(`.${key} must be a string, got ${describe(text)}`);
    if (text.length > MAX_STRING_LENGTH) return problem(`.${key} must be at most ${MAX_STRING_LENGTH} characters, got ${text.length}`);
    const allowed = placeholdersOf(ENGLISH[key as StringKey]);
    const unknown = placeholdersOf(text).filter((name) => !allowed.includes(name));
    if (unknown.length) return problem(`.${key} has the placeholder ${listed(unknown)}; its placeholders are ${listed(allowed)}`);
  }
  return { ok: true, strings: value as WidgetStrings };
}
