// The upload error page's only script (CSP script-src 'self' allows no inline code). It posts the
// messages the service prepared (src/server/widget/pages.ts) to the page that opened the widget,
// at the exact origin the service trusted, so the host's onFailure learns the code.
(function () {
  var node = document.getElementById('upload-error');
  var host = window.opener || (window.parent !== window ? window.parent : null);
  if (!node || !host) return;
  var data = JSON.parse(node.textContent);
  for (var i = 0; i < data.messages.length; i++) host.postMessage(data.messages[i], data.targetOrigin);
})();
