// The first script of every view document: it takes WebRTC out of the view's JavaScript realm and
// out of every same-origin realm the view could make, because no CSP directive governs WebRTC in
// Chromium (a view with `connect-src 'none'` could still send data to any TURN or STUN server in
// UDP packets). It is plain browser JavaScript kept as text (see proxy-script.ts for why), and it
// runs before any of the view's own code, in the view's document, which the server sent with the
// view's CSP as a header (including `require-trusted-types-for 'script'`, which it relies on).
//
// What a realm gets (`lockRealm(window)`):
// 1. Every `RTC*` and `webkitRTC*` global is deleted (the constructors exist only on Window;
//    workers have no RTCPeerConnection).
// 2. A Trusted Types default policy that lets every string through except a `javascript:` URL
//    navigation (its sink is "Location href"): such a navigation would replace the document with a
//    fresh realm built from a string. No other default policy can be made after it.
// 3. Fresh realms come from frames. Same-origin child frames are locked the same way: on insertion
//    (the browser's synchronous load of an empty frame, and after every DOM method that inserts
//    nodes), when their `contentWindow`/`contentDocument` is read, and on every load. A `srcdoc`
//    attribute (the one way left to put a same-origin document with scripts in a child frame;
//    `frame-src` refuses `blob:`, `data:`, the view's own origin and anything undeclared) is
//    removed before the frame navigates: from nodes about to be inserted (open shadow roots and
//    template contents included), from every frame's element after each insertion, on every
//    attribute write (`setAttribute*`, `Attr` values; the `srcdoc` property refuses outright),
//    from markup written with `document.write` (refused when it holds a srcdoc frame), and by a
//    MutationObserver on the document and on every shadow root made with `attachShadow`, which
//    always runs before the frame's navigation can commit.
// 4. `window.open` results are locked when they are same-origin (the host never grants popups).
//
// The text is one function, `lockRealm`, whose body is assembled from parts that share its scope:
// srcdoc-stripping-source.ts (finding frames and removing their srcdoc) and
// prototype-wrappers-source.ts (the wrapped DOM methods, setters and getters) are spliced in here
// as function declarations; this file keeps the state, the locking of a window and the table of
// what `wrapPrototypes` wraps.

import { prototypeWrappersSource } from "./prototype-wrappers-source";
import { srcdocStrippingSource } from "./srcdoc-stripping-source";

/** Prefix of the console warnings the lockdown writes, so developers see why something failed. */
export const lockdownWarningPrefix = "mcp-chat-host sandbox:";

/**
 * The text of a JavaScript function expression `function lockRealm(window)` that locks a
 * window's realm as described above and returns `{ prepare(html) }`, which removes srcdoc from the
 * frames of the view's page before the loader writes it; the loader applies it to its own window
 * first.
 */
export const realmLockdownSource = `function lockRealm(rootWindow) {
  "use strict";
  var warningPrefix = ${JSON.stringify(lockdownWarningPrefix)};
  var lockedDocuments = new WeakSet();
  var wrappedPrototypes = new WeakSet();
  var maximumFrames = 1000;

  function warn(text) {
    try {
      console.warn(warningPrefix + " " + text);
    } catch (_error) {
      // A console that throws must not stop the lockdown.
    }
  }

  function removeWebRtc(win) {
    var names;
    try {
      names = Object.getOwnPropertyNames(win);
    } catch (_error) {
      return;
    }
    for (var index = 0; index < names.length; index++) {
      var name = names[index];
      if (/^(webkit)?RTC/.test(name)) {
        try {
          delete win[name];
        } catch (_error) {
          // A property that cannot be deleted is checked below.
        }
        if (name in win) {
          try {
            Object.defineProperty(win, name, { value: undefined, writable: false, configurable: false });
          } catch (_error) {
            warn("could not remove " + name + " from a frame.");
          }
        }
      }
    }
  }

${srcdocStrippingSource}

  function lockFrames(win) {
    var count = 0;
    try {
      count = Math.min(win.length, maximumFrames);
    } catch (_error) {
      return;
    }
    for (var index = 0; index < count; index++) {
      var child;
      try {
        child = win[index];
        // The frame's element, wherever it is (a shadow root too): no srcdoc may stay on it.
        stripFrameElement(child.frameElement);
      } catch (_error) {
        continue; // another origin: not ours, and unreachable from the view
      }
      lockWindow(child);
    }
  }

  function installPolicy(win) {
    var factory = win.trustedTypes;
    if (!factory || factory.defaultPolicy) return;
    try {
      factory.createPolicy("default", {
        createHTML: function (value) {
          return String(value);
        },
        createScriptURL: function (value) {
          return String(value);
        },
        createScript: function (value, _type, sink) {
          if (sink === "Location href") {
            warn("refused a javascript: navigation in the app's view.");
            return null;
          }
          return String(value);
        }
      });
    } catch (_error) {
      warn("could not install the Trusted Types policy of a frame.");
    }
  }

${prototypeWrappersSource}

  function watchDocument(win, doc) {
    // document.open() erases listeners: this runs again after every open.
    doc.addEventListener(
      "load",
      function (event) {
        var target = event.target;
        var tag = target && target.tagName ? String(target.tagName).toUpperCase() : "";
        if (tag === "IFRAME" || tag === "FRAME") {
          try {
            lockWindow(target.contentWindow);
          } catch (_error) {
            // A frame on another origin is not ours to lock, and the view cannot reach into it.
          }
        }
      },
      true
    );
  }

  function observeDocument(win, doc) {
    try {
      new win.MutationObserver(function (records) {
        for (var index = 0; index < records.length; index++) {
          var record = records[index];
          if (record.type === "attributes") stripFrameElement(record.target);
          else
            for (var added = 0; added < record.addedNodes.length; added++) stripTree(record.addedNodes[added]);
        }
        lockFrames(win);
      }).observe(doc, { subtree: true, childList: true, attributes: true, attributeFilter: ["srcdoc"] });
    } catch (_error) {
      warn("could not watch a frame's document.");
    }
  }

  function wrapPrototypes(win) {
    var nodePrototype = win.Node && win.Node.prototype;
    if (!nodePrototype || wrappedPrototypes.has(nodePrototype)) return;
    wrappedPrototypes.add(nodePrototype);
    var inserting = ["append", "prepend", "replaceChildren", "moveBefore"];
    var siblings = ["before", "after", "replaceWith"];
    wrapMethods(nodePrototype, ["appendChild", "insertBefore", "replaceChild"], win);
    wrapMethods(win.Element && win.Element.prototype, inserting.concat(siblings, ["insertAdjacentElement", "insertAdjacentHTML", "setHTMLUnsafe"]), win);
    wrapMethods(win.CharacterData && win.CharacterData.prototype, siblings, win);
    wrapMethods(win.DocumentType && win.DocumentType.prototype, siblings, win);
    wrapMethods(win.DocumentFragment && win.DocumentFragment.prototype, inserting, win);
    wrapMethods(win.ShadowRoot && win.ShadowRoot.prototype, ["setHTMLUnsafe"], win);
    wrapMethods(win.Document && win.Document.prototype, inserting.concat(["execCommand"]), win);
    wrapMethods(win.Range && win.Range.prototype, ["insertNode", "surroundContents"], win);
    wrapSetters(win.Element && win.Element.prototype, ["innerHTML", "outerHTML"], win);
    wrapSetters(win.ShadowRoot && win.ShadowRoot.prototype, ["innerHTML"], win);
    wrapFrameGetters(win.HTMLIFrameElement && win.HTMLIFrameElement.prototype);
    wrapAttributeWrites(win);
    wrapAttachShadow(win);
    wrapFrameGetters(win.HTMLFrameElement && win.HTMLFrameElement.prototype);
    var documentPrototype = win.Document && win.Document.prototype;
    wrapWrites(documentPrototype, win);
    var openDescriptor = documentPrototype && Object.getOwnPropertyDescriptor(documentPrototype, "open");
    if (openDescriptor && typeof openDescriptor.value === "function") {
      var open = openDescriptor.value;
      Object.defineProperty(documentPrototype, "open", {
        value: function () {
          var result = open.apply(this, arguments);
          // open(url, name, features) is window.open; only the document form erases listeners.
          if (arguments.length < 3) {
            watchDocument(win, this);
            observeDocument(win, this);
          }
          return result;
        },
        writable: openDescriptor.writable,
        enumerable: openDescriptor.enumerable,
        configurable: openDescriptor.configurable
      });
    }
    var windowOpen = win.open;
    if (typeof windowOpen === "function") {
      win.open = function () {
        var opened = windowOpen.apply(this, arguments);
        if (opened) lockWindow(opened);
        return opened;
      };
    }
  }

  function lockWindow(win) {
    if (!win) return;
    var doc;
    try {
      doc = win.document;
    } catch (_error) {
      return; // another origin: its realm is unreachable from the view
    }
    if (!doc || lockedDocuments.has(doc)) {
      lockFrames(win);
      return;
    }
    lockedDocuments.add(doc);
    removeWebRtc(win);
    installPolicy(win);
    wrapPrototypes(win);
    watchDocument(win, doc);
    observeDocument(win, doc);
    lockFrames(win);
  }

  lockWindow(rootWindow);

  return {
    /** The view's page with srcdoc removed from its frames (unchanged when it has none). */
    prepare: function (html) {
      var doc = rootWindow.document;
      if (!/srcdoc/i.test(html) || !hasSrcdocFrame(doc, html)) return html;
      var parsed = new rootWindow.DOMParser().parseFromString(html, "text/html");
      stripTree(parsed);
      var doctype = parsed.doctype ? "<!doctype " + parsed.doctype.name + ">" : "";
      return doctype + parsed.documentElement.outerHTML;
    }
  };
}`;
