import { describe, expect, it } from "vitest";
import { admitOidcPerson } from "./oidc-admission";
import { checkOidcOptions, oidcUserId } from "./oidc-options";

describe("the OpenID Connect settings", () => {
  it("allows plain http only for a loopback issuer, and always asks for openid", () => {
    expect(checkOidcOptions({ issuer: "http://127.0.0.1:9000", clientId: "chat" })).toMatchObject({
      insecureLoopback: true,
      scope: "openid email profile",
      signInTimeoutMs: 600_000,
      clientSecret: undefined,
    });
    expect(
      checkOidcOptions({ issuer: "https://id.example.com", clientId: "chat", scopes: ["email"] }),
    ).toMatchObject({ insecureLoopback: false, scope: "openid email" });
    for (const issuer of [
      "http://id.example.com",
      "http://127.0.0.1.example.com",
      "ftp://x",
      "no url",
    ]) {
      expect(() => checkOidcOptions({ issuer, clientId: "chat" })).toThrow(/https|not a URL/);
    }
    expect(() => checkOidcOptions({ issuer: "https://id.example.com", clientId: " " })).toThrow(
      /clientId is empty/,
    );
    expect(() =>
      checkOidcOptions({ issuer: "https://id.example.com", clientId: "c", allowedDomains: ["@x"] }),
    ).toThrow(/not a domain/);
  });

  it("makes the user id from issuer and subject together, never from either alone", () => {
    expect(oidcUserId("https://a.example", "1")).toBe(oidcUserId("https://a.example", "1"));
    expect(oidcUserId("https://a.example", "1")).not.toBe(oidcUserId("https://b.example", "1"));
    // Joining the two texts differently must not give the same id.
    expect(oidcUserId("https://a.example/x", "y")).not.toBe(oidcUserId("https://a.example", "/xy"));
  });

  it("admits by verified email domain (case-insensitive) and by group, both when both are set", () => {
    const options = checkOidcOptions({
      issuer: "https://id.example.com",
      clientId: "c",
      allowedDomains: ["Example.com"],
      allowedGroups: ["staff"],
    });
    const base = { iss: "https://id.example.com", sub: "s", email_verified: true };
    expect(
      admitOidcPerson({ ...base, email: "a@EXAMPLE.com", groups: ["staff"] }, options),
    ).toMatchObject({
      admitted: true,
      user: { name: "a@EXAMPLE.com" },
    });
    expect(
      admitOidcPerson({ ...base, email: "a@example.com.evil.org", groups: ["staff"] }, options),
    ).toMatchObject({
      admitted: false,
      rule: "domain",
    });
    expect(
      admitOidcPerson({ ...base, email: "a@example.com", groups: ["guests"] }, options),
    ).toMatchObject({
      admitted: false,
      rule: "groups",
    });
    expect(
      admitOidcPerson(
        { ...base, email_verified: "true", email: "a@example.com", groups: ["staff"] },
        options,
      ),
    ).toMatchObject({
      admitted: false,
      rule: "domain",
    });
  });
});
