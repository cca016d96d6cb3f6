// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { decideOpenLink, maximumLinkLength, openInNewTab, openLinkWithConsent } from "./open-link";

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

describe("links to this computer or the local network", () => {
  it.each([
    ["http://127.0.0.1:8787/?token=x", "127.0.0.1"],
    ["http://127.0.0.1:45123/collect", "127.0.0.1"],
    ["http://localhost:3000/", "localhost"],
    ["http://[::1]:9/", "[::1]"],
    ["http://192.168.1.1/admin", "192.168.1.1"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["http://printer.local/", "printer.local"],
  ])("are not opened without asking: %s", (url, address) => {
    const decision = decideOpenLink(url);
    expect(decision.allowed).toBe(false);
    if (decision.allowed) return;
    expect(decision.ask?.url).toBe(new URL(url).href);
    expect(decision.ask?.question).toContain(new URL(url).href);
    expect(decision.ask?.question).toContain(address);
    expect(decision.reason).toContain("only when the person agrees");
  });

  it("opens one only after the person says yes, and never a refused link", async () => {
    const open = vi.fn();
    const questions: string[] = [];
    const local = decideOpenLink("http://127.0.0.1:45123/collect");
    const no = (question: string) => {
      questions.push(question);
      return false;
    };
    expect(await openLinkWithConsent(local, no, open)).toEqual({
      opened: false,
      log: "The person chose not to open http://127.0.0.1:45123/collect.",
    });
    expect(open).not.toHaveBeenCalled();
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain("an address on this computer");
    expect((await openLinkWithConsent(local, async () => true, open)).opened).toBe(true);
    expect(open).toHaveBeenCalledExactlyOnceWith("http://127.0.0.1:45123/collect");

    const confirm = vi.fn(() => true);
    const refused = await openLinkWithConsent(decideOpenLink("javascript:alert(1)"), confirm, open);
    expect(refused.opened).toBe(false);
    expect(refused.log).toMatch(/only http and https/);
    const web = await openLinkWithConsent(decideOpenLink("https://example.com/"), confirm, open);
    expect(web.opened).toBe(true);
    expect(confirm).not.toHaveBeenCalled();
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
