// What the runtime refuses, the types refuse too: each call below throws in the browser, so each
// must fail to compile (`@ts-expect-error` fails the type check when the line compiles).
import { openUpload, type SignedOptions } from 'open-video-upload';

declare const signed: SignedOptions;
const serviceUrl = 'https://video.example.com';

export function refused(): void {
  // @ts-expect-error `left` is an option of the overlay form only.
  openUpload({ ...signed, serviceUrl, left: '1px' });
  // @ts-expect-error `isTop` too, also when the popup is named.
  openUpload({ ...signed, serviceUrl, form: 'popup', isTop: false });
  // @ts-expect-error the signed options come from `config()` or here, not both.
  openUpload({ serviceUrl, appId: 'shop', config: async () => signed });
  // @ts-expect-error the same when every signed option is given.
  openUpload({ ...signed, serviceUrl, config: async () => signed });
}

export function allowed(): void {
  openUpload({ ...signed, serviceUrl, form: 'overlay', left: '1px', isTop: false });
  openUpload({ serviceUrl, form: 'overlay', top: '2px', config: async () => signed });
  openUpload({ ...signed, serviceUrl });
}
