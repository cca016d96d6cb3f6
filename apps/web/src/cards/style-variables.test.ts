// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { documentVariableReader, hostStyleVariables } from "./style-variables";

describe("hostStyleVariables", () => {
  it("uses the palette of the theme when the page defines nothing", () => {
    expect(hostStyleVariables("light")["--color-background-primary"]).toBe("#ffffff");
    expect(hostStyleVariables("dark")["--color-background-primary"]).toBe("#1e1f22");
    expect(hostStyleVariables("dark")["--font-sans"]).toMatch(/system-ui/);
  });

  it("prefers the page's variable under the spec's name, then under the page's own name", () => {
    const page: Record<string, string> = {
      "--color-background": "#101010",
      "--color-text": "#fafafa",
      "--color-text-primary": "#eeeeee",
    };
    const variables = hostStyleVariables("dark", (name) => page[name] ?? "");
    expect(variables["--color-background-primary"]).toBe("#101010");
    expect(variables["--color-text-primary"]).toBe("#eeeeee");
    expect(variables["--color-border-primary"]).toBe("#3a3b41");
  });

  it("reads custom properties from the document root", () => {
    document.documentElement.style.setProperty("--color-border", "#123456");
    try {
      expect(hostStyleVariables("light", documentVariableReader())["--color-border-primary"]).toBe(
        "#123456",
      );
    } finally {
      document.documentElement.style.removeProperty("--color-border");
    }
  });
});
