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

  function stripFrameElement(element) {
    if (!element || typeof element.getAttribute !== "function") return;
    var tag = String(element.tagName || "").toUpperCase();
    if (tag !== "IFRAME" && tag !== "FRAME") return;
    if (element.hasAttribute("srcdoc")) {
      element.removeAttribute("srcdoc");
      warn("removed the srcdoc of a frame in the app's view; frames may load only the app's declared frameDomains.");
    }
  }

  // Every frame element under a node, in its light tree, in open shadow roots and in template
  // contents (a declarative shadow root's markup), up to maximumFrames.
  function framesUnder(node, found) {
    if (!node || typeof node.querySelectorAll !== "function" || found.length >= maximumFrames) return found;
    var elements = node.querySelectorAll("iframe, frame, template, *");
    for (var index = 0; index < elements.length && found.length < maximumFrames; index++) {
      var element = elements[index];
      var tag = String(element.tagName || "").toUpperCase();
      if (tag === "IFRAME" || tag === "FRAME") found.push(element);
      else if (tag === "TEMPLATE" && element.content) framesUnder(element.content, found);
      if (element.shadowRoot) framesUnder(element.shadowRoot, found);
    }
    return found;
  }

  function stripTree(node) {
    if (!node || typeof node !== "object") return;
    stripFrameElement(node);
    var frames = framesUnder(node, []);
    for (var index = 0; index < frames.length; index++) stripFrameElement(frames[index]);
  }

  // Whether markup would create a frame with srcdoc, parsed where nothing runs or loads.
  function hasSrcdocFrame(doc, text) {
    try {
      var probe = doc.createElement("template");
      probe.innerHTML = text;
      return framesUnder(probe.content, []).some(function (frame) {
        return frame.hasAttribute("srcdoc");
      });
    } catch (_error) {
      return true; // cannot tell: treat it as the case to refuse
    }
  }

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

  function wrapMethods(prototype, names, win) {
    if (!prototype) return;
    names.forEach(function (name) {
      var descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      if (!descriptor || typeof descriptor.value !== "function") return;
      var original = descriptor.value;
      var wrapped = function () {
        // A frame navigates once it is connected: strip what this call connects (a detached
        // parent is stripped when it is itself connected, so big trees are walked once).
        if (!this || this.isConnected !== false) {
          for (var index = 0; index < arguments.length; index++) stripTree(arguments[index]);
        }
        try {
          return original.apply(this, arguments);
        } finally {
          lockFrames(win);
        }
      };
      keepName(wrapped, original);
      Object.defineProperty(prototype, name, {
        value: wrapped,
        writable: descriptor.writable,
        enumerable: descriptor.enumerable,
        configurable: descriptor.configurable
      });
    });
  }

  function keepName(wrapped, original) {
    try {
      Object.defineProperty(wrapped, "name", { value: original.name });
      Object.defineProperty(wrapped, "length", { value: original.length });
    } catch (_error) {
      // Names are cosmetic.
    }
  }

  // Attribute changes on a frame already in the page: strip srcdoc at once, before the browser can
  // start its navigation (the MutationObserver does not see into shadow roots).
  function wrapAttributeWrites(win) {
    var elementPrototype = win.Element && win.Element.prototype;
    if (elementPrototype) {
      ["setAttribute", "setAttributeNS", "toggleAttribute", "setAttributeNode", "setAttributeNodeNS"].forEach(function (name) {
        var descriptor = Object.getOwnPropertyDescriptor(elementPrototype, name);
        if (!descriptor || typeof descriptor.value !== "function") return;
        var original = descriptor.value;
        var wrapped = function () {
          try {
            return original.apply(this, arguments);
          } finally {
            stripFrameElement(this);
          }
        };
        keepName(wrapped, original);
        Object.defineProperty(elementPrototype, name, {
          value: wrapped,
          writable: descriptor.writable,
          enumerable: descriptor.enumerable,
          configurable: descriptor.configurable
        });
      });
    }
    var attrPrototype = win.Attr && win.Attr.prototype;
    if (attrPrototype) {
      ["value", "nodeValue", "textContent"].forEach(function (name) {
        var descriptor = Object.getOwnPropertyDescriptor(attrPrototype, name) ||
          (win.Node && Object.getOwnPropertyDescriptor(win.Node.prototype, name));
        if (!descriptor || typeof descriptor.set !== "function") return;
        var set = descriptor.set;
        Object.defineProperty(attrPrototype, name, {
          get: descriptor.get,
          set: function (value) {
            try {
              set.call(this, value);
            } finally {
              if (this && this.ownerElement) stripFrameElement(this.ownerElement);
            }
          },
          enumerable: descriptor.enumerable,
          configurable: true
        });
      });
    }
    var framePrototype = win.HTMLIFrameElement && win.HTMLIFrameElement.prototype;
    var srcdoc = framePrototype && Object.getOwnPropertyDescriptor(framePrototype, "srcdoc");
    if (srcdoc && typeof srcdoc.set === "function") {
      Object.defineProperty(framePrototype, "srcdoc", {
        get: srcdoc.get,
        set: function () {
          warn("refused the srcdoc of a frame in the app's view; frames may load only the app's declared frameDomains.");
        },
        enumerable: srcdoc.enumerable,
        configurable: srcdoc.configurable
      });
    }
  }

  // A shadow root is a tree of its own: watch it like the document.
  function wrapAttachShadow(win) {
    var elementPrototype = win.Element && win.Element.prototype;
    var descriptor = elementPrototype && Object.getOwnPropertyDescriptor(elementPrototype, "attachShadow");
    if (!descriptor || typeof descriptor.value !== "function") return;
    var original = descriptor.value;
    var wrapped = function () {
      var root = original.apply(this, arguments);
      watchDocument(win, root);
      observeDocument(win, root);
      return root;
    };
    keepName(wrapped, original);
    Object.defineProperty(elementPrototype, "attachShadow", {
      value: wrapped,
      writable: descriptor.writable,
      enumerable: descriptor.enumerable,
      configurable: descriptor.configurable
    });
  }

  function wrapSetters(prototype, names, win) {
    if (!prototype) return;
    names.forEach(function (name) {
      var descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      if (!descriptor || typeof descriptor.set !== "function") return;
      var set = descriptor.set;
      Object.defineProperty(prototype, name, {
        get: descriptor.get,
        set: function (value) {
          try {
            set.call(this, value);
          } finally {
            lockFrames(win);
          }
        },
        enumerable: descriptor.enumerable,
        configurable: descriptor.configurable
      });
    });
  }

  function wrapFrameGetters(prototype) {
    if (!prototype) return;
    ["contentWindow", "contentDocument"].forEach(function (name) {
      var descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      if (!descriptor || typeof descriptor.get !== "function") return;
      var get = descriptor.get;
      Object.defineProperty(prototype, name, {
        get: function () {
          var value = get.call(this);
          if (value) lockWindow(name === "contentWindow" ? value : value.defaultView);
          return value;
        },
        enumerable: descriptor.enumerable,
        configurable: descriptor.configurable
      });
    });
  }

  function wrapWrites(prototype, win) {
    if (!prototype) return;
    // Markup written while a page is parsed runs its scripts inside the call, before any observer
    // could see a frame it made: refuse markup that makes a srcdoc frame, or that completes the
    // attribute's name begun by the previous call.
    var tail = "";
    ["write", "writeln"].forEach(function (name) {
      var descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      if (!descriptor || typeof descriptor.value !== "function") return;
      var original = descriptor.value;
      Object.defineProperty(prototype, name, {
        value: function () {
          var text = Array.prototype.map.call(arguments, String).join("");
          var spliced = /srcdoc/i.test(tail + text) && !/srcdoc/i.test(text);
          if (spliced || (/srcdoc/i.test(text) && hasSrcdocFrame(this, text))) {
            warn("refused document." + name + " of markup with a srcdoc frame.");
            return undefined;
          }
          tail = text.slice(-6);
          try {
            return original.apply(this, arguments);
          } finally {
            lockFrames(win);
          }
        },
        writable: descriptor.writable,
        enumerable: descriptor.enumerable,
        configurable: descriptor.configurable
      });
    });
  }

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
