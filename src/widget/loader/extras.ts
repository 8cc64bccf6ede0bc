/**
 * The loader's rarely used parts, one ES module of their own (dist/Scripts/UploadWidget/extras.js):
 * the error page for a configuration the loader refuses, and the overlay the popup falls back to
 * when a blocker refuses the window. The script loaders import it from the service only when one
 * of those happens, which keeps them within their byte budget (test/widget.budget.test.ts); the
 * npm module bundles it.
 */
export { writeErrorPage } from './errorPage';
export { openOverlay } from './overlay';
