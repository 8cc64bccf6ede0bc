/** The window holding the upload page: the popup, or the overlay's iframe. */
export interface WidgetContainer {
  /** Where the page's messages arrive: the popup's opener, or the window holding the layer. */
  host: Window;
  /** The page's window; asked for on every use because an iframe gets it only once attached. */
  page(): Window | null;
  /** Removes every node, listener and timer the container added (and closes the popup). */
  remove(): void;
}
