// The script of the proxy page, inlined in it (allowed by its hash) and also served at
// `/proxy.js` for pages that name it. It is plain browser JavaScript kept as
// text, because it must run unchanged in the browser: a function's own source (`toString()`)
// would carry whatever the TypeScript loader injected (tsx adds `__name(...)` helpers). The
// constants it shares with this package are spliced in from their single definitions; its
// behaviour is tested in jsdom (proxy-script.test.ts) and in Chromium (e2e/).
import { defaultInnerSandbox, sandboxTokenAllowList } from "../frame/sandbox-tokens";
import {
  frameAllowMetaName,
  hostOriginMetaName,
  sandboxProxyReadyMethod,
  sandboxResourceReadyMethod,
  sandboxViewHtmlMethod,
  sandboxViewReadyMethod,
  viewUrlMetaName,
} from "./sandbox-methods";

const constants = JSON.stringify({
  hostOriginMetaName,
  frameAllowMetaName,
  viewUrlMetaName,
  sandboxProxyReadyMethod,
  sandboxResourceReadyMethod,
  sandboxViewReadyMethod,
  sandboxViewHtmlMethod,
  allowedTokens: sandboxTokenAllowList,
  defaultTokens: defaultInnerSandbox,
});

/**
 * The proxy's JavaScript (a classic script, no modules). What it does, in order:
 *
 * 1. Refuses to run top-level, when the host origin is missing or equals its own origin, when the
 *    view URL is missing or on its own or the host's origin, or when its parent is not the host
 *    origin (`location.ancestorOrigins[0]`, else `document.referrer`): it shows a one-line notice
 *    and does nothing else.
 * 2. Listens for `message`: from `window.parent` only with `event.origin === hostOrigin`; from its
 *    inner iframe only when `event.source` is that frame's window and `event.origin` is the view's
 *    origin (`"null"` without `allow-same-origin`). Anything else is ignored.
 * 3. Creates the inner iframe at once, with the default tokens, so the view's document (its
 *    loader, which runs nothing of the view until it has the html) loads while the host is still
 *    answering: `sandbox` = the default tokens intersected with the allow-list, as
 *    `intersectSandboxTokens` does; `allow` from the page's meta; `src` = the view's signed URL
 *    on the view's own origin, whose response carries the view's CSP.
 * 4. Consumes `ui/notifications/sandbox-*` from the host: the first valid
 *    `sandbox-resource-ready` (an html string, and the view's MessagePort transferred with it)
 *    keeps both; when it asks for other tokens than the frame has, the frame is replaced by a new
 *    one with those tokens (set before it navigates) before any html is sent. Later ones are
 *    ignored.
 * 5. When the view's loader says `sandbox-view-ready` (the first time only), sends it the html in
 *    `sandbox-view-html` with the port transferred, at once or as soon as the host has sent them.
 * 6. Relays nothing else: from then on the host and the view speak on the port, one frame
 *    boundary apart; whatever else the host's window or the view posts here is dropped.
 * 7. Posts `{ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }` to
 *    the parent once set up.
 *
 * The view is another origin than the proxy, so nothing the view runs can touch this page or
 * navigate it; the proxy's own `frame-src` admits only the view's page, so the view cannot send
 * its frame anywhere else either.
 */
export const proxyScript = `(function () {
  "use strict";
  var constants = ${constants};

  function readMeta(name) {
    var element = document.querySelector('meta[name="' + name + '"]');
    return element ? element.getAttribute("content") || "" : "";
  }

  function refuse(reason) {
    // A person who opened this page directly sees why nothing happens; nothing else runs.
    var notice = document.createElement("p");
    notice.textContent = "This is the sandbox of mcp-chat-host; it only works inside the chat page.";
    document.body.appendChild(notice);
    console.warn("Sandbox proxy stopped: " + reason);
  }

  function parentOrigin() {
    var ancestors = window.location.ancestorOrigins;
    if (ancestors && ancestors.length > 0) return ancestors[0];
    try {
      return new URL(document.referrer).origin;
    } catch (_error) {
      return "";
    }
  }

  function originOf(address) {
    try {
      return new URL(address).origin;
    } catch (_error) {
      return "";
    }
  }

  function intersectTokens(requested) {
    var asked = (typeof requested === "string" ? requested : constants.defaultTokens)
      .toLowerCase()
      .split(/[\\t\\n\\f\\r ]+/);
    var popups = asked.indexOf("allow-popups") !== -1;
    return constants.allowedTokens
      .filter(function (token) {
        if (token === "allow-popups-to-escape-sandbox") return popups;
        return asked.indexOf(token) !== -1;
      })
      .join(" ");
  }

  var hostOrigin = readMeta(constants.hostOriginMetaName);
  var allow = readMeta(constants.frameAllowMetaName);
  var viewUrl = readMeta(constants.viewUrlMetaName);
  var viewOrigin = originOf(viewUrl);
  var ownOrigin = window.location.origin;

  if (window.top === window || window.parent === window) {
    refuse("opened top-level");
    return;
  }
  if (hostOrigin === "" || hostOrigin === ownOrigin) {
    refuse("the host origin is missing or equals the sandbox origin");
    return;
  }
  if (viewOrigin === "" || viewOrigin === "null" || viewOrigin === ownOrigin || viewOrigin === hostOrigin) {
    refuse("the view's address is missing or not on an origin of its own");
    return;
  }
  var embedder = parentOrigin();
  if (embedder !== hostOrigin) {
    refuse("embedded by " + (embedder || "an unknown origin") + ", not by " + hostOrigin);
    return;
  }

  var inner = null;
  var innerTokens = "";
  var innerOrigin = "null";
  var resourceTaken = false;
  var viewReady = false;
  var pendingHtml = null;
  var pendingPort = null;
  var htmlSent = false;

  function createInner(tokens) {
    if (inner !== null) document.body.removeChild(inner);
    var frame = document.createElement("iframe");
    // The sandbox flags are read when the frame navigates: set them before src and insertion.
    frame.setAttribute("sandbox", tokens);
    if (allow !== "") frame.setAttribute("allow", allow);
    frame.setAttribute("title", "App view");
    frame.setAttribute("referrerpolicy", "origin");
    frame.src = viewUrl;
    // With allow-same-origin the view has its own origin; without it, an opaque one.
    innerOrigin = tokens.split(" ").indexOf("allow-same-origin") !== -1 ? viewOrigin : "null";
    innerTokens = tokens;
    viewReady = false;
    inner = frame;
    document.body.appendChild(frame);
  }

  function takeResource(params, ports) {
    if (params === null || typeof params !== "object" || typeof params.html !== "string") {
      console.warn("Sandbox proxy ignored sandbox-resource-ready without an html string.");
      return;
    }
    if (!ports || ports.length !== 1) {
      console.warn("Sandbox proxy ignored sandbox-resource-ready without the view's port.");
      return;
    }
    resourceTaken = true;
    var tokens = intersectTokens(params.sandbox);
    if (tokens !== innerTokens) createInner(tokens);
    pendingHtml = params.html;
    pendingPort = ports[0];
    if (viewReady) sendHtml();
  }

  function sendHtml() {
    if (inner === null || !inner.contentWindow) return;
    htmlSent = true;
    var html = pendingHtml;
    var port = pendingPort;
    pendingHtml = null;
    pendingPort = null;
    inner.contentWindow.postMessage(
      { jsonrpc: "2.0", method: constants.sandboxViewHtmlMethod, params: { html: html } },
      innerOrigin === "null" ? "*" : innerOrigin,
      [port]
    );
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      if (
        !resourceTaken &&
        data !== null &&
        typeof data === "object" &&
        data.method === constants.sandboxResourceReadyMethod
      ) {
        takeResource(data.params, event.ports);
      }
      return;
    }
    if (inner !== null && event.source === inner.contentWindow && event.source !== null) {
      if (event.origin !== innerOrigin) return;
      if (data !== null && typeof data === "object" && data.method === constants.sandboxViewReadyMethod) {
        if (htmlSent || viewReady) {
          console.warn("Sandbox proxy: the view asked for its page again (it reloaded); not sent twice.");
          return;
        }
        viewReady = true;
        if (pendingHtml !== null) sendHtml();
        return;
      }
      // The view speaks to the host on its port (its window.parent); nothing it posts here goes on.
      console.warn(
        "Sandbox proxy dropped a message the view posted to it: a view's window.parent is its channel to the host."
      );
    }
  });

  window.parent.postMessage(
    { jsonrpc: "2.0", method: constants.sandboxProxyReadyMethod, params: {} },
    hostOrigin
  );
  // After the listener and the ready message, so nothing of the view is missed or waited for.
  createInner(intersectTokens(undefined));
})();
`;

let proxyScriptHashValue: Promise<string> | null = null;

/**
 * The proxy script's SHA-256 as the proxy page's CSP names it (`'sha256-<base64>'` without the
 * quotes): only this exact script runs in the proxy page, inline, so the page needs no second
 * request for its script.
 *
 * @returns the base64 digest (computed once).
 */
export function proxyScriptHash(): Promise<string> {
  proxyScriptHashValue ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(proxyScript))
    .then((digest) => btoa(String.fromCharCode(...new Uint8Array(digest))));
  return proxyScriptHashValue;
}
