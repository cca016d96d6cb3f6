import { describe, expect, it } from "vitest";
import { checkCspSource } from "./csp-source";

const hostOrigin = "http://127.0.0.1:3000";

function accepted(value: string, host = hostOrigin): string | undefined {
  const check = checkCspSource(value, host);
  return check.ok ? check.source : undefined;
}

function refusal(value: string, host = hostOrigin): string | undefined {
  const check = checkCspSource(value, host);
  return check.ok ? undefined : check.code;
}

describe("checkCspSource", () => {
  it("accepts https and wss origins, wildcard subdomains and loopback http, normalised", () => {
    expect(accepted("https://api.example.com")).toBe("https://api.example.com");
    expect(accepted("HTTPS://CDN.Example.COM/")).toBe("https://cdn.example.com");
    expect(accepted("https://api.example.com:8443")).toBe("https://api.example.com:8443");
    expect(accepted("https://*.example.com")).toBe("https://*.example.com");
    expect(accepted("wss://realtime.example.com")).toBe("wss://realtime.example.com");
    expect(accepted("http://localhost:5173")).toBe("http://localhost:5173");
    expect(accepted("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080");
    expect(accepted("ws://[::1]:9000")).toBe("ws://[::1]:9000");
    expect(accepted("https://bücher.example")).toBe("https://xn--bcher-kva.example");
  });

  it("refuses entries that could inject directives or sources", () => {
    for (const value of [
      "https://a.com; script-src *",
      "https://a.com,https://b.com",
      "'unsafe-eval'",
      "'self'",
      '"https://a.com"',
      "https://a.com https://b.com",
      "https://a.com\nscript-src *",
      "https://a.com\u0000",
      "https://a.com\u200b",
      "https:\\\\a.com",
    ]) {
      expect(refusal(value), value).toBe("unsafe_character");
    }
  });

  it("refuses values that are not origins", () => {
    for (const value of [
      "*",
      "*://a.com",
      "https:",
      "data:",
      "blob:",
      "http:",
      "example.com",
      "//example.com",
      "https://example.com/path",
      "https://example.com/?q=1",
      "https://example.com#x",
      "https://user@example.com",
      "https://example.com:*",
      "https://a.*.example.com",
      "https://*.127.0.0.1",
      "ftp://example.com",
      "javascript://example.com",
      "https://exa_mple.com",
      "https://-bad.example.com",
      "https://example.com:99999",
    ]) {
      expect(refusal(value), value).toBe("not_an_origin");
    }
  });

  it("refuses plain http and ws to other machines, and wildcards over a whole top-level domain", () => {
    expect(refusal("http://example.com")).toBe("insecure_scheme");
    expect(refusal("ws://example.com")).toBe("insecure_scheme");
    expect(refusal("https://*.com")).toBe("broad_wildcard");
  });

  it("refuses anything that would reach the host origin, by alias, scheme or wildcard", () => {
    expect(refusal("http://127.0.0.1:3000")).toBe("names_host_origin");
    expect(refusal("http://127.0.0.1:3000/")).toBe("names_host_origin");
    expect(refusal("ws://127.0.0.1:3000")).toBe("names_host_origin");
    expect(refusal("http://localhost:3000")).toBe("names_host_origin");
    expect(refusal("http://0x7f.1:3000")).toBe("names_host_origin");
    expect(refusal("http://[::1]:3000")).toBe("names_host_origin");
    // Another port on the same machine is another origin (a sandbox or a dev server).
    expect(accepted("http://127.0.0.1:3001")).toBe("http://127.0.0.1:3001");

    const deployed = "https://chat.example.com";
    expect(refusal("https://chat.example.com", deployed)).toBe("names_host_origin");
    expect(refusal("https://chat.example.com:443", deployed)).toBe("names_host_origin");
    expect(refusal("wss://chat.example.com", deployed)).toBe("names_host_origin");
    expect(refusal("https://*.example.com", deployed)).toBe("names_host_origin");
    expect(accepted("https://api.example.com", deployed)).toBe("https://api.example.com");
    expect(accepted("https://chat.example.com:8443", deployed)).toBe(
      "https://chat.example.com:8443",
    );
  });

  it("refuses anything that would reach the sandbox's own origins", () => {
    const reserved = ["http://*.localhost:41234"];
    const refused = (value: string) => {
      const check = checkCspSource(value, "http://127.0.0.1:3000", reserved);
      return check.ok ? check.source : check.code;
    };
    for (const value of [
      "http://proxy.localhost:41234",
      "http://notes.localhost:41234",
      "ws://notes.localhost:41234",
      "http://127.0.0.1:41234",
      "http://localhost:41234",
      "http://[::1]:41234",
    ]) {
      expect(refused(value), value).toBe("names_sandbox_origin");
    }
    expect(refused("http://notes.localhost:41235")).toBe("http://notes.localhost:41235");
    const deployed = ["https://*.sandbox.example.com"];
    expect(
      checkCspSource("https://notes.sandbox.example.com", "https://chat.example.com", deployed),
    ).toMatchObject({ ok: false, code: "names_sandbox_origin" });
    expect(
      checkCspSource("https://*.example.com", "https://chat.example.net", deployed),
    ).toMatchObject({ ok: false, code: "names_sandbox_origin" });
    expect(checkCspSource("https://api.example.com", "https://chat.example.net", deployed)).toEqual(
      { ok: true, source: "https://api.example.com" },
    );
    // A guard that does not parse refuses everything (fail closed).
    expect(
      checkCspSource("https://api.example.com", "https://chat.example.net", ["nonsense"]),
    ).toMatchObject({ ok: false, code: "names_sandbox_origin" });
  });

  it("refuses over-long entries", () => {
    expect(
      refusal(
        `https://${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.example.com`,
      ),
    ).toBe("too_long");
  });
});
