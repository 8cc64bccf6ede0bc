// The upload error page's only script (CSP script-src 'self' allows no inline code). It gives the
// page the system's light or dark colours unless the `theme` option chose one (the uploader's
// stylesheet keys them on data-theme). It posts the messages the service prepared
// (src/server/widget/pages.ts) to the page that opened the widget, at the exact origin the service
// names (all of it when the app trusts that origin, only what refused it otherwise), so the host's
// onFailure learns the code; and it shows the Close button, which asks the widget to close, only
// then (without a host, nobody would hear it).
(function () {
  var root = document.documentElement;
  if (!root.getAttribute('data-theme')) {
    var dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
    root.setAttribute('data-theme', dark ? 'dark' : 'light');
  }
  var node = document.getElementById('upload-error');
  var host = window.opener || (window.parent !== window ? window.parent : null);
  if (!node || !host) return;
  var data = JSON.parse(node.textContent);
  for (var i = 0; i < data.messages.length; i++) host.postMessage(data.messages[i], data.targetOrigin);
  // For the site's developer (the app does not trust this page's origin): the console, not the page.
  if (data.hint) console.warn('open-video-upload: ' + data.hint);
  var close = document.getElementById('close-widget');
  if (!close) return;
  close.hidden = false;
  close.onclick = function () {
    host.postMessage(data.close, data.targetOrigin);
    // A popup closes itself too, should its opener not hear (a page at another origin than it says).
    if (window.opener) window.close();
  };
})();
