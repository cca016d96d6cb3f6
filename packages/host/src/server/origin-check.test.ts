import { describe, expect, it } from "vitest";
import { assertBindAllowed, isLoopbackAddress } from "./bind-policy";
import { OriginPolicy } from "./origin-check";

describe("OriginPolicy", () => {
  const policy = new OriginPolicy({ port: 8787, bindAddress: "127.0.0.1" });

  it("answers to loopback names on its own port only", () => {
    for (const host of ["127.0.0.1:8787", "localhost:8787", "LOCALHOST:8787", "[::1]:8787"]) {
      expect(policy.hostAllowed(host), host).toBe(true);
    }
    for (const host of [
      "127.0.0.1:8788",
      "localhost",
      "evil.example:8787",
      "127.0.0.1.evil.example:8787",
      undefined,
    ]) {
      expect(policy.hostAllowed(host), String(host)).toBe(false);
    }
  });

  it("accepts the host's own origins only", () => {
    expect(policy.originAllowed("http://127.0.0.1:8787")).toBe(true);
    expect(policy.originAllowed("http://localhost:8787")).toBe(true);
    for (const origin of [
      "null",
      "http://127.0.0.1:9999",
      "https://127.0.0.1:8787",
      "http://evil.example",
      undefined,
    ]) {
      expect(policy.originAllowed(origin), String(origin)).toBe(false);
    }
  });

  it("requires an allowed Origin for state-changing methods and for handshakes", () => {
    const host = "127.0.0.1:8787";
    expect(policy.checkHttpRequest({ method: "POST", headers: { host } })?.status).toBe(403);
    expect(
      policy.checkHttpRequest({
        method: "DELETE",
        headers: { host, origin: "http://127.0.0.1:8787" },
      }),
    ).toBeNull();
    expect(policy.checkHandshake({ headers: { host } })?.status).toBe(403);
    expect(
      policy.checkHandshake({ headers: { host, origin: "http://localhost:8787" } }),
    ).toBeNull();
    expect(
      policy.checkHandshake({ headers: { host: "evil:8787", origin: "http://localhost:8787" } })
        ?.status,
    ).toBe(421);
  });

  it("uses the public origin as canonical and allows its host", () => {
    const behindProxy = new OriginPolicy({
      port: 8787,
      bindAddress: "0.0.0.0",
      publicOrigin: "https://chat.example.com/",
    });
    expect(behindProxy.canonicalOrigin).toBe("https://chat.example.com");
    expect(behindProxy.hostAllowed("chat.example.com")).toBe(true);
    expect(behindProxy.originAllowed("https://chat.example.com")).toBe(true);
    expect(behindProxy.originAllowed("http://chat.example.com")).toBe(false);
  });
});

describe("allowedHosts", () => {
  it("is kept in the form browsers send and refuses what is not a host", () => {
    const configured = new OriginPolicy({
      port: 8787,
      bindAddress: "127.0.0.1",
      allowedHosts: ["Chat.LAN:8080", "intranet:80"],
    });
    expect(configured.hostAllowed("chat.lan:8080")).toBe(true);
    expect(configured.hostAllowed("intranet")).toBe(true);
    for (const bad of ["chat.lan/path", "user@chat.lan", "a b"]) {
      expect(
        () => new OriginPolicy({ port: 1, bindAddress: "127.0.0.1", allowedHosts: [bad] }),
        bad,
      ).toThrow(/allowedHosts/);
    }
  });
});

describe("bind policy", () => {
  it("knows loopback addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.1.2.3",
      "::1",
      "[::1]",
      "localhost",
      "::ffff:127.0.0.1",
    ]) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "example.com"]) {
      expect(isLoopbackAddress(address), address).toBe(false);
    }
  });

  it("needs explicit auth off loopback", () => {
    expect(() => assertBindAllowed("127.0.0.1", undefined)).not.toThrow();
    expect(() => assertBindAllowed("192.168.1.2", undefined)).toThrow(/without auth/);
    expect(() => assertBindAllowed("::", { mode: "token" })).not.toThrow();
  });
});
