import createDOMPurify, { type DOMPurify } from "dompurify";
import { Marked, type Tokens } from "marked";
import { localAddressOf } from "../url/local-address";

/** The attribute that marks a code block's copy button (the message view listens for clicks). */
export const COPY_CODE_ATTRIBUTE = "data-copy-code";

/**
 * The attribute that marks a link to this computer or the local network, with the phrase that
 * says where it goes: the message view asks the person before it opens such a link (the browser
 * would send it the host's cookies, which ignore ports).
 */
export const LOCAL_LINK_ATTRIBUTE = "data-local-address";

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function isWebUrl(href: string): boolean {
  try {
    const url = new URL(href, "https://invalid.example");
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const marked = new Marked({
  gfm: true,
  // A single newline is a line break, as in the chat products people know (and the offline
  // model writes one line per app).
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML in a model's or an app's text is shown as text, the way chat products do: it is
    // what the model wrote, not markup for this page. DOMPurify still runs on the whole output.
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    code(token: Tokens.Code): string {
      const language = (token.lang ?? "").match(/^[\w+#.-]+/)?.[0] ?? "";
      const languageClass = language === "" ? "" : ` class="language-${escapeHtml(language)}"`;
      const label = language === "" ? "code" : language;
      return (
        `<div class="code-block"><div class="code-block-bar"><span>${escapeHtml(label)}</span>` +
        `<button type="button" class="code-copy" ${COPY_CODE_ATTRIBUTE}="" aria-label="Copy code">Copy</button></div>` +
        `<pre><code${languageClass}>${escapeHtml(token.text)}</code></pre></div>`
      );
    },
    // Images from other hosts are blocked by the page's CSP (and could leak what the page shows
    // through their URL), so an image becomes a link the person can choose to open.
    image(token: Tokens.Image): string {
      const label = escapeHtml(token.text === "" ? "image" : token.text);
      if (!isWebUrl(token.href)) return `<span>[${label}]</span>`;
      return `<a href="${escapeHtml(token.href)}">[image: ${label}]</a>`;
    },
  },
});

/** "127.0.0.1:9000, an address on this computer" for a local http(s) link, else null. */
function localLinkOf(href: string | null): string | null {
  if (href === null || !isWebUrl(href)) return null;
  let url: URL;
  try {
    url = new URL(href, "https://invalid.example");
  } catch {
    return null;
  }
  const local = localAddressOf(url.hostname);
  return local === null ? null : `${url.host}, ${local.description}`;
}

let purifier: DOMPurify | undefined;

/** A DOMPurify instance of our own, so its hooks do not change anyone else's sanitising. */
function getPurifier(): DOMPurify {
  if (purifier !== undefined) return purifier;
  const instance = createDOMPurify(window);
  instance.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      const href = node.getAttribute("href") ?? "";
      if (!isWebUrl(href) && !href.startsWith("mailto:")) node.removeAttribute("href");
      const local = localLinkOf(node.getAttribute("href"));
      if (local !== null) node.setAttribute(LOCAL_LINK_ATTRIBUTE, local);
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
  });
  purifier = instance;
  return instance;
}

/**
 * Renders markdown (a model's reply, a person's message, an app's text) to HTML that is safe to
 * put in the page: marked first, then DOMPurify over the whole result. Raw HTML is shown as text;
 * links open in a new tab without an opener; only http(s) and mailto links keep their address.
 *
 * @param markdown - the text.
 * @returns sanitised HTML.
 */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return getPurifier().sanitize(html, {
    FORBID_TAGS: ["style", "form", "iframe", "object", "embed", "img", "svg", "math"],
    FORBID_ATTR: ["style", "srcset"],
    ADD_ATTR: ["target"],
  });
}
