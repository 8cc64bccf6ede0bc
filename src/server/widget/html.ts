/** Text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * JSON for a `<script type="application/json">` block. `<`, `>` and `&` become \u escapes so no
 * value can close the element (`</script>`) or open a comment (`<!--`); U+2028/2029 likewise, for
 * readers that treat the text as JavaScript. JSON.parse reads the escapes back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
