/**
 * The service's base URL from the loader's own `src` ({base}/Scripts/UploadWidget/<file>.js), so a
 * page needs no other setting. Must be given `document.currentScript` while the script first runs:
 * it is null once the script has finished.
 */
export function serviceBaseFromScript(script: Element | null): string | undefined {
  const src = script?.getAttribute('src');
  if (!src) return undefined;
  return new URL('../../', new URL(src, script!.ownerDocument.baseURI)).href.replace(/\/$/, '');
}

export function missingScriptBase(fileName: string): Error {
  return new Error(`openUpload: cannot tell the service's address; load ${fileName} with <script src="{service}/Scripts/UploadWidget/${fileName}">`);
}
