// Part of the realm lockdown's text (realm-lockdown.ts): the functions that wrap a realm's DOM
// methods, setters and getters so that frames are stripped of `srcdoc` and locked as they are
// made. They are not a script of their own: the text is spliced into the body of `lockRealm`,
// whose `warn`, `lockFrames`, `lockWindow`, `watchDocument` and `observeDocument` and whose
// srcdoc helpers (srcdoc-stripping-source.ts) they use; `wrapPrototypes` there says what each
// one wraps. Plain browser JavaScript kept as text, like the rest.

/**
 * Function declarations for the body of `lockRealm`: `wrapMethods(prototype, names, win)`
 * (node-inserting methods), `keepName(wrapped, original)`, `wrapAttributeWrites(win)` (attribute
 * writes and the `srcdoc` property), `wrapAttachShadow(win)`, `wrapSetters(prototype, names,
 * win)` (`innerHTML`-like setters), `wrapFrameGetters(prototype)` (`contentWindow` and
 * `contentDocument`) and `wrapWrites(prototype, win)` (`document.write` and `writeln`).
 */
export const prototypeWrappersSource = `  function wrapMethods(prototype, names, win) {
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
  }`;
