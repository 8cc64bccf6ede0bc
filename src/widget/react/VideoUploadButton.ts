import { createElement, type ButtonHTMLAttributes, type ReactNode } from 'react';
import type { ModuleUploadConfig } from '../../shared/widgetConfig';
import { useVideoUpload, type VideoUpload } from './useVideoUpload';

/** The button's own props; any other `<button>` attribute passes through (`onClick` too, called first). */
export interface VideoUploadButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'type'> {
  /** The options of `openUpload`, handlers included. */
  options: ModuleUploadConfig;
  /** The label, or a function of the upload's state (e.g. to show progress). @default 'Upload video' */
  children?: ReactNode | ((upload: VideoUpload) => ReactNode);
}

/**
 * A button that opens the uploader on click, synchronously inside the click so the popup is not
 * blocked; disabled while the uploader is open and nothing is stored yet; the uploader closes
 * when the button unmounts. `data-state` carries the upload's state for styling.
 */
export function VideoUploadButton({ options, children = 'Upload video', onClick, disabled, ...rest }: VideoUploadButtonProps): ReactNode {
  const upload = useVideoUpload();
  const busy = upload.state === 'open' || upload.state === 'progress';
  return createElement(
    'button',
    {
      ...rest,
      type: 'button',
      disabled: disabled || busy,
      'data-state': upload.state,
      onClick(event) {
        onClick?.(event);
        if (!event.defaultPrevented) upload.open(options);
      },
    } satisfies ButtonHTMLAttributes<HTMLButtonElement> & { 'data-state': string },
    typeof children === 'function' ? children(upload) : children,
  );
}
