import { describe, expect, it } from "vitest";
import { frameAncestorsValue, isCspReadableOrigin } from "./frame-ancestors";

describe("frame-ancestors", () => {
  it("keeps names and IPv4 addresses, and leaves out IPv6 origins no browser reads in CSP", () => {
    expect(isCspReadableOrigin("http://127.0.0.1:8787")).toBe(true);
    expect(isCspReadableOrigin("http://localhost:8787")).toBe(true);
    expect(isCspReadableOrigin("https://chat.example.com")).toBe(true);
    expect(isCspReadableOrigin("http://[::1]:8787")).toBe(false);
    expect(isCspReadableOrigin("https://[2001:db8::1]")).toBe(false);
    expect(
      frameAncestorsValue(["http://127.0.0.1:8787", "http://localhost:8787", "http://[::1]:8787"]),
    ).toBe("http://127.0.0.1:8787 http://localhost:8787");
  });

  it("says 'none' when no origin is left, as the browser would read the unreadable entry", () => {
    expect(frameAncestorsValue([])).toBe("'none'");
    expect(frameAncestorsValue(["http://[::1]:8787"])).toBe("'none'");
  });
});
