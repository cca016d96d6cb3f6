import { describe, expect, it } from "vitest";
import {
  defaultInnerSandbox,
  intersectSandboxTokens,
  outerFrameSandbox,
  sandboxTokenAllowList,
} from "./sandbox-tokens";

describe("intersectSandboxTokens", () => {
  it("uses the default when nothing is requested, and nothing for an empty request", () => {
    expect(intersectSandboxTokens()).toBe("allow-scripts allow-same-origin allow-forms");
    expect(intersectSandboxTokens(undefined)).toBe(defaultInnerSandbox);
    expect(intersectSandboxTokens("")).toBe("");
    expect(intersectSandboxTokens("   ")).toBe("");
  });

  it("never grants top navigation or tokens outside the allow-list", () => {
    const granted = intersectSandboxTokens(
      "allow-scripts allow-top-navigation allow-top-navigation-by-user-activation " +
        "allow-top-navigation-to-custom-protocols allow-pointer-lock allow-presentation " +
        "allow-storage-access-by-user-activation allow-orientation-lock bogus",
    );
    expect(granted).toBe("allow-scripts");
  });

  it("matches case-insensitively, ignores duplicates and returns allow-list order", () => {
    expect(
      intersectSandboxTokens(
        "ALLOW-FORMS\tallow-scripts\nallow-forms allow-modals allow-downloads",
      ),
    ).toBe("allow-scripts allow-forms allow-modals allow-downloads");
  });

  it("grants popups only as the pair that escapes the sandbox", () => {
    expect(intersectSandboxTokens("allow-scripts allow-popups")).toBe(
      "allow-scripts allow-popups allow-popups-to-escape-sandbox",
    );
    expect(intersectSandboxTokens("allow-scripts allow-popups-to-escape-sandbox")).toBe(
      "allow-scripts",
    );
  });

  it("gives the outer frame every token the inner one can get, and no top navigation", () => {
    expect(outerFrameSandbox.split(" ")).toEqual([...sandboxTokenAllowList]);
    expect(outerFrameSandbox).not.toContain("top-navigation");
    expect(outerFrameSandbox.split(" ")).toEqual(
      expect.arrayContaining(["allow-scripts", "allow-same-origin"]),
    );
  });
});
