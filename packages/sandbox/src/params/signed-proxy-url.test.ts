import { describe, expect, it } from "vitest";
import { buildProxyUrl } from "./proxy-params";
import { proxyUrlLifetimeSeconds, signProxyUrl, verifyProxyUrl } from "./signed-proxy-url";

const key = "a signing key of at least thirty-two bytes";
const proxyOrigin = "http://proxy.localhost:41234";
const now = Date.UTC(2026, 0, 1);
const params = {
  host: "http://127.0.0.1:3000",
  view: "notes",
  csp: { connectDomains: ["https://api.example.com"] },
  permissions: { camera: {} },
};
const looserCsp = Buffer.from('{"connectDomains":["https://evil.example"]}').toString("base64url");

describe("signed proxy URLs", () => {
  it("signs the card's proxy URL for a day, and it verifies until then", async () => {
    const url = new URL(await signProxyUrl(proxyOrigin, params, key, now));
    expect(url.origin).toBe(proxyOrigin);
    expect(url.pathname).toBe("/proxy");
    expect(url.searchParams.get("view")).toBe("notes");
    expect(Number(url.searchParams.get("exp"))).toBe(now / 1000 + proxyUrlLifetimeSeconds);
    expect(url.searchParams.get("sig")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Everything else is exactly the plain proxy URL's query.
    const plain = new URL(buildProxyUrl(proxyOrigin, params));
    for (const [name, value] of plain.searchParams) expect(url.searchParams.get(name)).toBe(value);
    expect(await verifyProxyUrl(url, key, now)).toEqual({ ok: true });
    expect(await verifyProxyUrl(url, key, now + proxyUrlLifetimeSeconds * 1000 - 1)).toEqual({
      ok: true,
    });
    const bare = new URL(await signProxyUrl(proxyOrigin, { host: params.host }, key, now));
    expect(await verifyProxyUrl(bare, key, now)).toEqual({ ok: true });
  });

  it("refuses an unsigned URL and any change: csp, host, view, permissions, expiry, origin, key", async () => {
    const signed = new URL(await signProxyUrl(proxyOrigin, params, key, now));
    const changed = (edit: (url: URL) => void): URL => {
      const copy = new URL(signed);
      edit(copy);
      return copy;
    };
    for (const url of [
      new URL(buildProxyUrl(proxyOrigin, params)),
      changed((url) => url.searchParams.set("csp", looserCsp)),
      changed((url) => url.searchParams.delete("csp")),
      changed((url) => url.searchParams.set("host", "http://localhost:3000")),
      changed((url) => url.searchParams.set("view", "other")),
      changed((url) => url.searchParams.delete("permissions")),
      changed((url) => url.searchParams.set("permissions", "eyJtaWNyb3Bob25lIjp7fX0")),
      changed((url) => url.searchParams.set("exp", String(now / 1000 + 10 * 86_400))),
      changed((url) => url.searchParams.set("exp", "soon")),
      changed((url) => url.searchParams.delete("exp")),
      changed((url) => url.searchParams.append("csp", looserCsp)),
      changed((url) => url.searchParams.set("extra", "1")),
      changed((url) => url.searchParams.set("sig", "x")),
      changed((url) => url.searchParams.delete("sig")),
      new URL(`http://proxy.localhost:41235${signed.pathname}${signed.search}`),
    ]) {
      expect(await verifyProxyUrl(url, key, now), url.toString()).toEqual({
        ok: false,
        reason: "not_signed",
      });
    }
    expect(await verifyProxyUrl(signed, "another key that is also long enough!!", now)).toEqual({
      ok: false,
      reason: "not_signed",
    });
  });

  it("says expired for a URL it signed more than a day ago", async () => {
    const signed = new URL(await signProxyUrl(proxyOrigin, params, key, now));
    expect(await verifyProxyUrl(signed, key, now + proxyUrlLifetimeSeconds * 1000)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("refuses a short key", async () => {
    await expect(signProxyUrl(proxyOrigin, params, "short", now)).rejects.toMatchObject({
      code: "invalid_signing_key",
    });
  });
});
