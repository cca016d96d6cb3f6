// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { COPY_CODE_ATTRIBUTE, LOCAL_LINK_ATTRIBUTE, renderMarkdown } from "./render-markdown";

/** Parses rendered HTML into a detached element, to inspect what the page would get. */
function fragment(markdown: string): HTMLElement {
  const element = document.createElement("div");
  element.innerHTML = renderMarkdown(markdown);
  return element;
}

function everyAttributeName(root: HTMLElement): string[] {
  return [...root.querySelectorAll("*")].flatMap((element) =>
    [...element.attributes].map((attribute) => attribute.name.toLowerCase()),
  );
}

describe("renderMarkdown", () => {
  it("renders ordinary markdown", () => {
    const root = fragment("# Title\n\nSome **bold** and `code`.\n\n- one\n- two");
    expect(root.querySelector("h1")?.textContent).toBe("Title");
    expect(root.querySelector("strong")?.textContent).toBe("bold");
    expect(root.querySelectorAll("li")).toHaveLength(2);
  });

  it("never lets an <img onerror> through, inline or as a block", () => {
    for (const text of [
      '<img src=x onerror="alert(1)">',
      "Look: <img src=x onerror=alert(1)> here",
      "<p><img src=x onerror=alert(1)></p>",
    ]) {
      const root = fragment(text);
      expect(root.querySelector("img")).toBeNull();
      expect(everyAttributeName(root).some((name) => name.startsWith("on"))).toBe(false);
      // The person still sees what the model wrote, as text.
      expect(root.textContent).toContain("<img");
    }
  });

  it("never lets a <script> through", () => {
    const root = fragment(
      "Hello <script>window.pwned = true</script>\n\n<script>alert(1)</script>",
    );
    expect(root.querySelector("script")).toBeNull();
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
  });

  it("drops javascript: links and opens web links in a new tab without an opener", () => {
    const root = fragment("[bad](javascript:alert(1)) and [good](https://example.com/a)");
    const links = [...root.querySelectorAll("a")];
    expect(links).toHaveLength(2);
    const [bad, good] = links;
    expect(bad?.getAttribute("href")).toBeNull();
    expect(good?.getAttribute("href")).toBe("https://example.com/a");
    expect(good?.getAttribute("target")).toBe("_blank");
    expect(good?.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("turns a markdown image into a link instead of loading it", () => {
    const root = fragment("![chart](https://tracker.example/pixel.png?leak=1)");
    expect(root.querySelector("img")).toBeNull();
    expect(root.querySelector("a")?.getAttribute("href")).toBe(
      "https://tracker.example/pixel.png?leak=1",
    );
  });

  it("renders code blocks escaped, with a copy button and the language", () => {
    const root = fragment("```ts\nconst a = '<b>x</b>';\n```");
    const code = root.querySelector(".code-block pre code");
    expect(code?.textContent).toBe("const a = '<b>x</b>';");
    expect(code?.querySelector("b")).toBeNull();
    expect(code?.className).toBe("language-ts");
    expect(root.querySelector(`button[${COPY_CODE_ATTRIBUTE}]`)?.textContent).toBe("Copy");
  });

  it("does not let a code fence's language inject markup", () => {
    const root = fragment('```"><img src=x onerror=alert(1)>\nx\n```');
    expect(root.querySelector("img")).toBeNull();
    expect(everyAttributeName(root).some((name) => name.startsWith("on"))).toBe(false);
  });

  it.each([
    ["http://127.0.0.1:9000/export", "127.0.0.1:9000, an address on this computer"],
    ["http://localhost:3000", "localhost:3000, an address on this computer"],
    ["http://192.168.1.1/admin", "192.168.1.1, an address on your local network"],
  ])("marks a link to %s so the page asks before opening it", (href, where) => {
    const link = fragment(`[open](${href})`).querySelector("a");
    expect(link?.getAttribute(LOCAL_LINK_ATTRIBUTE)).toBe(where);
    expect(link?.getAttribute("href")).toBe(href);
  });

  it("leaves links to the web unmarked", () => {
    const link = fragment("[docs](https://example.com/docs)").querySelector("a");
    expect(link?.hasAttribute(LOCAL_LINK_ATTRIBUTE)).toBe(false);
  });
});
