/**
 * Three modules of tus-js-client 4 below its browser entry (the package has no exports map), so
 * that uploadCore.ts can leave out the entry's defaults it never uses (uploadCore.ts says why).
 * Their types are the entry's.
 */
declare module 'tus-js-client/lib.esm/upload.js' {
  import type { Upload, UploadOptions } from 'tus-js-client';
  const BaseUpload: typeof Upload & { defaultOptions: UploadOptions };
  export default BaseUpload;
}

declare module 'tus-js-client/lib.esm/browser/httpStack.js' {
  import type { DefaultHttpStack } from 'tus-js-client';
  const XHRHttpStack: typeof DefaultHttpStack;
  export default XHRHttpStack;
}

declare module 'tus-js-client/lib.esm/noopUrlStorage.js' {
  import type { UploadOptions } from 'tus-js-client';
  const NoopUrlStorage: new () => NonNullable<UploadOptions['urlStorage']>;
  export default NoopUrlStorage;
}
