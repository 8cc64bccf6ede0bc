import {
  type DeferredModuleConfig,
  type ModuleUploadConfig,
  type UploadErrorInfo,
  type UploadFailureInfo,
  type UploadProcessedInfo,
  type UploadProgressInfo,
  type UploadStateInfo,
  type UploadSuccessInfo,
  type UploadWidgetHandle,
} from '../../shared/widgetConfig';
import { trackUpload, type UploadStatus } from '../track/trackUpload';
import { HANDLERS } from '../loader/optionRules';
import { optionsFromAttributes } from './attributes';

/** The element's events: each handler's name without `on`, in lower case, with its info as `detail`. */
export interface VideoUploadEventMap {
  success: CustomEvent<UploadSuccessInfo>;
  failure: CustomEvent<UploadFailureInfo>;
  error: CustomEvent<UploadErrorInfo>;
  progress: CustomEvent<UploadProgressInfo>;
  statechange: CustomEvent<UploadStateInfo>;
  processed: CustomEvent<UploadProcessedInfo>;
}

/** `onStateChange` → `statechange`. */
const eventName = (handler: string) => handler.slice(2).toLowerCase() as keyof VideoUploadEventMap;

/** A `<video-upload>`: its options come from its attributes, then from its `options` property. */
export interface VideoUploadElement extends HTMLElement {
  /**
   * Options that attributes cannot carry (functions such as `config`, objects), merged over the
   * attributes'. Handlers set here are called before the element's events.
   */
  options: Partial<ModuleUploadConfig | DeferredModuleConfig>;
  /** Where the upload stands; the `state` attribute reflects it. */
  readonly state: UploadStatus;
  /** Opens the uploader, as a click on the button does. Call it inside a click, or a popup is blocked (the overlay opens instead). */
  open(): UploadWidgetHandle;
  /** Closes the uploader, as its × does. */
  close(): void;
  addEventListener<K extends keyof VideoUploadEventMap>(
    type: K,
    listener: (this: VideoUploadElement, event: VideoUploadEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof VideoUploadEventMap>(
    type: K,
    listener: (this: VideoUploadElement, event: VideoUploadEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** The host's layout and the default label; the page styles the button with `::part(button)`. */
const SHADOW =
  '<style>:host{display:inline-block}:host([hidden]){display:none}</style><button part="button" type="button"><slot>Upload video</slot></button>';

/**
 * The element's class, made on demand: `HTMLElement` does not exist on a server, so the class
 * cannot be declared when the module is imported there.
 */
export function videoUploadClass(): CustomElementConstructor {
  return class extends HTMLElement implements Omit<VideoUploadElement, 'addEventListener' | 'removeEventListener'> {
    options: Partial<ModuleUploadConfig | DeferredModuleConfig> = {};
    private status: UploadStatus = 'idle';
    private handle: UploadWidgetHandle | undefined;
    private readonly button: HTMLButtonElement;

    constructor() {
      super();
      // Open, so an integrator's test can reach the button.
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML = SHADOW;
      this.button = root.querySelector('button')!;
      this.button.addEventListener('click', () => this.open());
    }

    get state(): UploadStatus {
      return this.status;
    }

    connectedCallback(): void {
      this.show(this.status);
    }

    /** Leaving the page closes the uploader, as a framework's unmount does. */
    disconnectedCallback(): void {
      this.close();
    }

    open(): UploadWidgetHandle {
      const previous = this.handle;
      this.handle = undefined;
      previous?.close();
      const options = this.options;
      const handlers: Record<string, (info: unknown) => void> = {};
      for (const name of HANDLERS) {
        handlers[name] = (info) => {
          (options[name] as ((info: unknown) => void) | undefined)?.(info);
          this.dispatchEvent(new CustomEvent(eventName(name), { detail: info }));
        };
      }
      const config = { ...optionsFromAttributes(this), ...options, ...handlers } as ModuleUploadConfig;
      const handle = trackUpload(config, ({ state }) => {
        // An uploader this element has replaced or closed reports no more.
        if (this.handle === handle) this.show(state);
      });
      this.handle = handle;
      this.show('open');
      return handle;
    }

    /** The state follows as the hook's does: `idle` after a plain close, `failed` after a refusal, `done` stays. */
    close(): void {
      this.handle?.close();
    }

    private show(state: UploadStatus): void {
      this.status = state;
      this.setAttribute('state', state);
      this.button.disabled = state === 'open' || state === 'progress';
    }
  };
}
