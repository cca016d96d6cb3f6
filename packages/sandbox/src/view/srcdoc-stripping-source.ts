// Part of the realm lockdown's text (realm-lockdown.ts): the functions that find frames and take
// `srcdoc` off them. They are not a script of their own: the text is spliced into the body of
// `lockRealm`, whose `warn` and `maximumFrames` they use, and which calls them from its wrappers,
// its MutationObserver and `prepare`. Plain browser JavaScript kept as text, like the rest.

/**
 * Function declarations for the body of `lockRealm`: `stripFrameElement(element)` (removes the
 * srcdoc of one frame element), `framesUnder(node, found)` (every frame element under a node,
 * open shadow roots and template contents included), `stripTree(node)` (both together) and
 * `hasSrcdocFrame(doc, text)` (whether markup would make a frame with srcdoc).
 */
export const srcdocStrippingSource = `  function stripFrameElement(element) {
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
  }`;
