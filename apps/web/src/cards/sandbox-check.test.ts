// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { sandboxProblem } from "./sandbox-check";

const sandboxOrigin = "http://127.0.0.1:45999";

describe("sandboxProblem", () => {
  it("accepts a proxy on its own sandbox origin", () => {
    expect(
      sandboxProblem(
        { proxyUrl: `${sandboxOrigin}/proxy`, sandboxOrigin },
        "http://127.0.0.1:3000",
      ),
    ).toBeNull();
    // The origin may come with a trailing slash.
    expect(
      sandboxProblem(
        { proxyUrl: `${sandboxOrigin}/proxy`, sandboxOrigin: `${sandboxOrigin}/` },
        "http://127.0.0.1:3000",
      ),
    ).toBeNull();
  });

  it("refuses a sandbox on the chat page's own origin, another origin, or another scheme", () => {
    expect(
      sandboxProblem(
        { proxyUrl: "http://127.0.0.1:3000/proxy", sandboxOrigin: "http://127.0.0.1:3000" },
        "http://127.0.0.1:3000",
      ),
    ).toMatch(/own origin/);
    expect(
      sandboxProblem(
        { proxyUrl: "http://evil.example/proxy", sandboxOrigin },
        "http://127.0.0.1:3000",
      ),
    ).toMatch(/not on its sandbox origin/);
    expect(
      sandboxProblem({ proxyUrl: "javascript:alert(1)", sandboxOrigin }, "http://127.0.0.1:3000"),
    ).toMatch(/not http/);
  });
});
