import { describe, expect, it } from "vitest";
import { decodeBase64UrlJson, encodeBase64UrlJson } from "./base64url-json";
import {
  buildProxyUrl,
  decodeProxyParams,
  encodeProxyParams,
  maximumProxyParameterLength,
} from "./proxy-params";

describe("base64url JSON", () => {
  it("round-trips unicode without padding or URL-unsafe characters", () => {
    const value = { text: "bücher ✓ ~~~???>>>", list: [1, 2, 3] };
    const encoded = encodeBase64UrlJson(value);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBase64UrlJson(encoded)).toEqual(value);
  });

  it("refuses text that is not base64url JSON", () => {
    expect(() => decodeBase64UrlJson("a+b/")).toThrow(SyntaxError);
    expect(() => decodeBase64UrlJson("abcde")).toThrow(SyntaxError);
    expect(() => decodeBase64UrlJson(encodeBase64UrlJson("x").slice(0, -1) + "_")).toThrow(
      SyntaxError,
    );
    expect(() => decodeBase64UrlJson("_w")).toThrow(SyntaxError); // byte 0xff: not UTF-8
    expect(() => encodeBase64UrlJson(undefined)).toThrow(TypeError);
  });
});

describe("proxy params", () => {
  const csp = {
    connectDomains: ["https://api.example.com"],
    resourceDomains: ["https://cdn.example.com"],
    frameDomains: [],
    baseUriDomains: ["https://base.example.com"],
  };
  const permissions = { camera: {}, clipboardWrite: {} };

  it("round-trips the host, the view, csp and permissions through a URL", () => {
    const host = "http://127.0.0.1:3000";
    const url = new URL(
      buildProxyUrl("http://proxy.localhost:41234", { host, view: "notes", csp, permissions }),
    );
    expect(url.origin).toBe("http://proxy.localhost:41234");
    expect(url.pathname).toBe("/proxy");
    expect(decodeProxyParams(url.searchParams)).toEqual({
      host,
      view: "notes",
      csp,
      permissions,
      rejected: [],
    });
  });

  it("leaves out what is undefined, and decodes that as the restrictive defaults", () => {
    expect(encodeProxyParams({}).toString()).toBe("");
    expect(encodeProxyParams({ csp: undefined, permissions }).has("csp")).toBe(false);
    expect(decodeProxyParams(new URLSearchParams())).toEqual({
      host: undefined,
      view: undefined,
      csp: undefined,
      permissions: undefined,
      rejected: [],
    });
  });

  it("turns garbage into defaults plus a rejection, never an exception", () => {
    const garbage = [
      "csp=%%%&permissions=!!!",
      `csp=${encodeBase64UrlJson([1, 2])}&permissions=${encodeBase64UrlJson("camera")}`,
      `csp=${encodeBase64UrlJson(null)}`,
      "csp=e30&csp=e30",
      `csp=${"A".repeat(maximumProxyParameterLength + 4)}`,
      "csp=eyJub3QganNvbg", // '{"not json' in base64url
    ];
    for (const query of garbage) {
      const decoded = decodeProxyParams(new URLSearchParams(query));
      expect(decoded.csp, query).toBeUndefined();
      expect(decoded.permissions, query).toBeUndefined();
      expect(decoded.rejected.length, query).toBeGreaterThan(0);
    }
    expect(decodeProxyParams(new URLSearchParams("csp=%%%")).rejected[0]).toMatchObject({
      field: "csp",
      code: "malformed_parameter",
    });
    const twice = decodeProxyParams(new URLSearchParams("host=a&host=b&view=x&view=y"));
    expect([twice.host, twice.view]).toEqual([undefined, undefined]);
    expect(twice.rejected.map((entry) => entry.field)).toEqual(["host", "view"]);
  });

  it("keeps the valid parts of a partly wrong value and reports the rest", () => {
    const query = encodeProxyParams({
      csp: {
        connectDomains: ["https://ok.example.com", 7, { x: 1 }],
        resourceDomains: "https://cdn.example.com",
        scriptSrc: ["*"],
      } as never,
      permissions: { camera: {}, microphone: true, usb: {}, geolocation: [] } as never,
    });
    const decoded = decodeProxyParams(query);
    expect(decoded.csp).toEqual({ connectDomains: ["https://ok.example.com"] });
    expect(decoded.permissions).toEqual({ camera: {} });
    expect(decoded.rejected.map((entry) => `${entry.field}:${entry.code}`).sort()).toEqual(
      [
        "csp.connectDomains:wrong_type",
        "csp.connectDomains:wrong_type",
        "csp.resourceDomains:wrong_type",
        "csp.scriptSrc:unknown_field",
        "permissions.geolocation:wrong_type",
        "permissions.microphone:wrong_type",
        "permissions.usb:unknown_field",
      ].sort(),
    );
  });

  it("does not let a __proto__ key change any object's prototype", () => {
    const json = '{"__proto__":{"polluted":true},"connectDomains":["https://a.example.com"]}';
    const query = new URLSearchParams({ csp: Buffer.from(json).toString("base64url") });
    const decoded = decodeProxyParams(query);
    expect(decoded.csp).toEqual({ connectDomains: ["https://a.example.com"] });
    expect(Object.getPrototypeOf(decoded.csp)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(decoded.rejected).toEqual([
      expect.objectContaining({ field: "csp.__proto__", code: "unknown_field" }),
    ]);
  });
});
