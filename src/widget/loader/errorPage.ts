/**
 * Shows the service's error page (src/server/widget/pages.ts: the bare text, titled "Upload error")
 * in a same-origin blank container (popup or iframe), for configuration errors the loader finds
 * itself. `textContent` keeps every echoed value inert. A new window's or iframe's first blank
 * document always has a body (HTML: "populate with html/head/body").
 */
export function writeErrorPage(doc: Document, code: string, message: string): void {
  doc.title = 'Upload error';
  doc.body.textContent = `ErrorCode : ${code}, ErrorMessage : ${message}`;
}
