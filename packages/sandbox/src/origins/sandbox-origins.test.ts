import { describe, expect, it } from "vitest";
import { isViewLabel, proxyLabel, sandboxOrigins } from "./sandbox-origins";

describe("sandboxOrigins", () => {
  it("gives the proxy origin and a view origin per label, and tells them apart", () => {
    const local = sandboxOrigins("http://{source}.localhost:41234");
    expect(local.proxyOrigin).toBe("http://proxy.localhost:41234");
    expect(local.viewOrigin("notes")).toBe("http://notes.localhost:41234");
    expect(local.classify("http://proxy.localhost:41234")).toEqual({ kind: "proxy" });
    expect(local.classify("http://notes.localhost:41234")).toEqual({
      kind: "view",
      label: "notes",
    });
    for (const origin of [
      "http://localhost:41234",
      "http://notes.localhost:41235",
      "https://notes.localhost:41234",
      "http://a.b.localhost:41234",
      "http://127.0.0.1:41234",
      "http://-x.localhost:41234",
      "http://notes.localhost:41234/path",
      "not a url",
    ]) {
      expect(local.classify(origin), origin).toBeUndefined();
    }
    const deployed = sandboxOrigins("https://{source}.sandbox.example.com");
    expect(deployed.proxyOrigin).toBe("https://proxy.sandbox.example.com");
    expect(deployed.viewOrigin("basic-react")).toBe("https://basic-react.sandbox.example.com");
  });

  it("never names a view with the proxy's label or a non-label", () => {
    expect(isViewLabel(proxyLabel)).toBe(false);
    for (const label of ["", "Notes", "a.b", "-a", "a_b", "x".repeat(64)]) {
      expect(isViewLabel(label), label).toBe(false);
    }
    expect(() => sandboxOrigins("http://{source}.localhost:1").viewOrigin(proxyLabel)).toThrow(
      expect.objectContaining({ code: "invalid_source_label" }),
    );
  });

  it("refuses templates whose first label is not {source}", () => {
    for (const template of [
      "https://sandbox.example.com/{source}",
      "https://x{source}.example.com",
      "javascript:{source}",
      "https://{source}.example.com/path",
      "https://{source}.example.com:443",
      "ftp://{source}.example.com",
    ]) {
      expect(() => sandboxOrigins(template), template).toThrow(
        expect.objectContaining({ code: "invalid_origin_template" }),
      );
    }
  });
});
