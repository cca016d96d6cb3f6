// What the view's code sees as `window.parent`. The view's real parent is the sandbox proxy, on
// another origin: a cross-origin WindowProxy throws a SecurityError on any property it does not
// expose, and frameworks that walk the objects they are given (Vue's reactivity reads
// `__v_isRef`, `__v_skip` on everything the App holds, down to its transport's window) stop there.
// In the reference host (ext-apps basic-host) the parent is a same-origin proxy, so views made
// there expect a parent they can touch. Rather than making the proxy same-origin with the view
// (the view could then script a page whose policy is not its own), the loader gives the view's
// realm a stand-in: `parent` is a [Replaceable] attribute, so an own property of the view's window
// shadows it for every script of the view (the document is written into this same window).
//
// The stand-in is a MessagePort (of a channel of its own, never started): a MessageEvent's
// `source` may be a WindowProxy, a MessagePort or a ServiceWorker, nothing else, and views (and
// ext-apps' PostMessageTransport) check `event.source === window.parent`. Frameworks leave ports
// alone (Vue proxies only plain objects, arrays and collections). Its `postMessage(message,
// targetOrigin, transfer)` has a window's signature and sends on the card's own port to the host
// page; what the host sends on that port is dispatched on the view's window as a `message` event
// whose `source` is the stand-in and whose `origin` is the proxy's, as if the parent had posted it.
// The few properties a cross-origin window exposes (`closed`, `length`, `top`, `parent`,
// `location`, `focus`, `blur`) read through to the real parent.

/**
 * The text of a JavaScript function expression `function standInParent(window, port, origin)`
 * that installs the stand-in described above and returns it.
 */
export const parentStandInSource = `function standInParent(win, port, origin) {
  "use strict";
  var realParent = win.parent;
  var standIn = new MessageChannel().port1;

  function define(name, descriptor) {
    descriptor.configurable = false;
    Object.defineProperty(standIn, name, descriptor);
  }

  define("postMessage", {
    value: function postMessage(message, targetOrigin, transfer) {
      // Also the window's other form: postMessage(message, { targetOrigin, transfer }).
      var options = targetOrigin !== null && typeof targetOrigin === "object" ? targetOrigin : null;
      var list = options !== null ? options.transfer : transfer;
      port.postMessage(message, Array.isArray(list) ? list : []);
    },
  });
  ["closed", "length", "top", "parent", "location"].forEach(function (name) {
    define(name, {
      get: function () {
        return realParent[name];
      },
    });
  });
  ["focus", "blur"].forEach(function (name) {
    define(name, {
      value: function () {
        return realParent[name]();
      },
    });
  });
  define("self", {
    get: function () {
      return standIn;
    },
  });
  define("window", {
    get: function () {
      return standIn;
    },
  });

  Object.defineProperty(win, "parent", {
    configurable: false,
    enumerable: true,
    get: function () {
      return standIn;
    },
  });
  port.onmessage = function (event) {
    win.dispatchEvent(
      new MessageEvent("message", {
        data: event.data,
        origin: origin,
        source: standIn,
        ports: Array.prototype.slice.call(event.ports),
      })
    );
  };
  return standIn;
}`;
