import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { VideoUploadElement } from '../element/VideoUploadElement';
import type { ModuleOptions, OverlayOptions, PageOption, WidgetForm } from '../../shared/widgetConfig';

/** `needHandleSepcial` → `need-handle-sepcial`, as the element names its attributes (element/attributes.ts). */
type Kebab<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${Kebab<Tail>}`
  : Name;

type AttributeName = Kebab<PageOption | keyof OverlayOptions | keyof ModuleOptions>;

/**
 * `<video-upload>` in React's JSX: the options as attributes (text the element reads as it reads
 * HTML), and `options` for what text cannot carry (React 19 sets it as the element's property).
 */
export type VideoUploadAttributes = DetailedHTMLProps<HTMLAttributes<VideoUploadElement>, VideoUploadElement> & {
  [Name in Exclude<AttributeName, 'form'>]?: string | number | boolean;
} & { form?: WidgetForm; options?: VideoUploadElement['options'] };

// React's JSX has no `HTMLElementTagNameMap`: a custom element's tag is typed by augmenting its
// intrinsic elements, here where React's types are sure to be installed.
declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React types JSX as a namespace.
  namespace JSX {
    interface IntrinsicElements {
      'video-upload': VideoUploadAttributes;
    }
  }
}
