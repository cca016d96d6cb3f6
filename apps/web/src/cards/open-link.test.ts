// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { decideOpenLink, maximumLinkLength, openInNewTab } from "./open-link";

describe("decideOpenLink", () => {
  it("allows absolute http and https URLs, normalised", () => {
    expect(decideOpenLink("https://example.com/a?b=1#c")).toEqual({
      allowed: true,
      url: "https://example.com/a?b=1#c",
    });
    expect(decideOpenLink("HTTP://Example.com")).toEqual({
      allowed: true,
      url: "http://example.com/",
    });
  });

  it.each([
    "javascript:alert(document.cookie)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "blob:https://example.com/1234",
    "file:///etc/passwd",
    "vbscript:msgbox(1)",
    "about:blank",
    "mailto:someone@example.com",
  ])("refuses %s", (url) => {
    const decision = decideOpenLink(url);
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) expect(decision.reason).toMatch(/only http and https/);
  });

  it("refuses relative, empty, non-string and over-long URLs", () => {
    expect(decideOpenLink("/relative/path").allowed).toBe(false);
    expect(decideOpenLink("").allowed).toBe(false);
    expect(decideOpenLink(undefined).allowed).toBe(false);
    expect(decideOpenLink(42).allowed).toBe(false);
    expect(decideOpenLink(`https://example.com/${"a".repeat(maximumLinkLength)}`).allowed).toBe(
      false,
    );
  });
});

describe("openInNewTab", () => {
  it("opens a new tab without an opener or referrer", () => {
    const open = vi.fn(() => null);
    openInNewTab({ open }, "https://example.com/");
    expect(open).toHaveBeenCalledExactlyOnceWith(
      "https://example.com/",
      "_blank",
      "noopener,noreferrer",
    );
  });
});
