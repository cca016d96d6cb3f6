import { describe, expect, it } from "vitest";
import { escapeHtml, page } from "./html-page";

describe("the test providers' pages", () => {
  it("escape every character that could open markup or end an attribute", () => {
    expect(escapeHtml(`<script>"a" & 'b'</script>`)).toBe(
      "&#60;script&#62;&#34;a&#34; &#38; &#39;b&#39;&#60;/script&#62;",
    );
  });

  it("escape the title and load nothing from outside", () => {
    const html = page("<b>Sign in</b>", "<p>body</p>");
    expect(html).toContain("<title>&#60;b&#62;Sign in&#60;/b&#62;</title>");
    expect(html).not.toMatch(/<(link|script|img)\b|https?:/);
  });
});
