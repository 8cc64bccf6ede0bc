/**
 * Shows the service's error page text in a same-origin blank container (popup or iframe), for
 * configuration errors the loader finds itself. `textContent` keeps every echoed value inert.
 */
export function writeErrorPage(doc: Document, code: string, message: string): void {
  doc.title = `ErrorCode : ${code}`;
  const body = doc.body ?? doc.documentElement.appendChild(doc.createElement('body'));
  const text = doc.createElement('p');
  text.textContent = `ErrorCode : ${code}, ErrorMessage : ${message}`;
  text.style.cssText = 'font:14px/1.5 system-ui,sans-serif;color:#b42318;margin:24px;word-break:break-word';
  body.replaceChildren(text);
}
