// The loader of a view's document, inlined as the page's only script. It runs first in the view's
// realm: it locks the realm (realm-lockdown.ts), asks the proxy for the view's HTML, takes it once
// from the parent on the proxy's origin only, and writes it into this same document, so the
// view's code runs under the CSP header this document arrived with, in a realm without WebRTC.
import {
  proxyOriginMetaName,
  sandboxViewHtmlMethod,
  sandboxViewReadyMethod,
} from "../proxy/sandbox-methods";
import { parentStandInSource } from "./parent-stand-in-source";
import { realmLockdownSource } from "./realm-lockdown";

const constants = JSON.stringify({
  proxyOriginMetaName,
  sandboxViewReadyMethod,
  sandboxViewHtmlMethod,
});

/**
 * The loader's JavaScript (a classic script). In order:
 *
 * 1. Locks the realm: no WebRTC here or in any same-origin frame the view makes.
 * 2. Stops with a notice when opened top-level or without the proxy's origin.
 * 3. Posts `ui/notifications/sandbox-view-ready` to the parent (the proxy), for the proxy's
 *    origin only, and listens for one `ui/notifications/sandbox-view-html { html }` whose source
 *    is the parent, whose origin is the proxy's and which carries one MessagePort: the card's own
 *    channel to the host page.
 * 4. Makes `window.parent` a same-realm stand-in that speaks on that port
 *    (parent-stand-in-source.ts), so the view's messages reach the host page directly.
 * 5. Writes the html into this document (`document.open`, `write`, `close`): the document keeps
 *    its URL, its origin, its CSP, the locked realm and the stand-in; `srcdoc` is removed from its
 *    frames first.
 */
export const viewLoaderScript = `(function () {
  "use strict";
  var constants = ${constants};
  var lockdown = (${realmLockdownSource})(window);
  var standInParent = ${parentStandInSource};

  function readMeta(name) {
    var element = document.querySelector('meta[name="' + name + '"]');
    return element ? element.getAttribute("content") || "" : "";
  }

  var proxyOrigin = readMeta(constants.proxyOriginMetaName);
  if (window.parent === window || proxyOrigin === "") {
    document.addEventListener("DOMContentLoaded", function () {
      var notice = document.createElement("p");
      notice.textContent = "This is an app view of mcp-chat-host; it only works inside the chat page.";
      document.body.appendChild(notice);
    });
    console.warn("View loader stopped: not inside the sandbox proxy.");
    return;
  }

  function onMessage(event) {
    if (event.source !== window.parent || event.origin !== proxyOrigin) return;
    var data = event.data;
    if (
      data === null ||
      typeof data !== "object" ||
      data.method !== constants.sandboxViewHtmlMethod ||
      data.params === null ||
      typeof data.params !== "object" ||
      typeof data.params.html !== "string" ||
      event.ports.length !== 1
    ) {
      return;
    }
    window.removeEventListener("message", onMessage);
    standInParent(window, event.ports[0], proxyOrigin);
    var html = lockdown.prepare(data.params.html);
    document.open();
    document.write(html);
    document.close();
  }

  window.addEventListener("message", onMessage);
  window.parent.postMessage(
    { jsonrpc: "2.0", method: constants.sandboxViewReadyMethod, params: {} },
    proxyOrigin
  );
})();
`;
