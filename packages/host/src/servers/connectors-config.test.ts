// `host.connectors`: absent means people add no servers; patterns are compiled and matched by
// scheme, host (a * stands within one label), port and path (a trailing /* for any path below);
// every mistake stops the start with a sentence naming the field.
import { parseMcpConfig } from "@mcp-chat-host/connection";
import { describe, expect, it } from "vitest";
import { connectorsFromConfig } from "./connectors-config";

function policyOf(connectors: unknown) {
  return connectorsFromConfig(parseMcpConfig({ mcpServers: {}, host: { connectors } }));
}

describe("connectorsFromConfig", () => {
  it("is undefined (off) without a config, a host section or the field", () => {
    expect(connectorsFromConfig(null)).toBeUndefined();
    expect(connectorsFromConfig(parseMcpConfig({ mcpServers: {} }))).toBeUndefined();
    expect(
      connectorsFromConfig(parseMcpConfig({ mcpServers: {}, host: { liveViews: 3 } })),
    ).toBeUndefined();
  });

  it("matches a * within one label of the host, and a trailing /* for any path", () => {
    const policy = policyOf({ allow: ["https://*.example.com/*", "https://mcp.asana.com/sse"] })!;
    expect(policy.patterns).toEqual(["https://*.example.com/*", "https://mcp.asana.com/sse"]);
    expect(policy.allowLoopback).toBe(false);
    expect(policy.allows(new URL("https://mcp.example.com/mcp"))).toBe(true);
    expect(policy.allows(new URL("https://MCP.example.com/"))).toBe(true);
    expect(policy.allows(new URL("https://a.b.example.com/mcp"))).toBe(false);
    expect(policy.allows(new URL("https://example.com/mcp"))).toBe(false);
    expect(policy.allows(new URL("https://mcp.example.com.evil.net/mcp"))).toBe(false);
    expect(policy.allows(new URL("http://mcp.example.com/mcp"))).toBe(false);
    expect(policy.allows(new URL("https://mcp.example.com:8443/mcp"))).toBe(false);
    expect(policy.allows(new URL("https://mcp.asana.com/sse"))).toBe(true);
    expect(policy.allows(new URL("https://mcp.asana.com/sse/more"))).toBe(false);
    expect(policy.allows(new URL("https://mcp.asana.com/other"))).toBe(false);
  });

  it("takes a * port and allowLoopback", () => {
    const policy = policyOf({ allow: ["http://127.0.0.1:*/*"], allowLoopback: true })!;
    expect(policy.allowLoopback).toBe(true);
    expect(policy.allows(new URL("http://127.0.0.1:4321/mcp"))).toBe(true);
    expect(policy.allows(new URL("http://127.0.0.2:4321/mcp"))).toBe(false);
    const fixed = policyOf({ allow: ["https://mcp.example.com:8443/*"] })!;
    expect(fixed.allows(new URL("https://mcp.example.com:8443/a"))).toBe(true);
    expect(fixed.allows(new URL("https://mcp.example.com/a"))).toBe(false);
  });

  it.each([
    [
      "not an object",
      true,
      'host.connectors must be an object such as { "allow": ["https://*.example.com/*"] }, not true. Fix it in the configuration file.',
    ],
    [
      "another field",
      { allow: ["https://a.example.com/"], deny: [] },
      'host.connectors takes only "allow" and "allowLoopback", not "deny". Fix it in the configuration file.',
    ],
    [
      "no allow",
      {},
      'host.connectors.allow must list at least one address pattern, such as ["https://*.example.com/*"]. Fix it in the configuration file.',
    ],
    [
      "a pattern that is not a string",
      { allow: [3] },
      "host.connectors.allow must hold only strings, not 3. Fix it in the configuration file.",
    ],
    [
      "a pattern that is not a URL",
      { allow: ["example.com"] },
      'host.connectors.allow has "example.com", which is not a pattern such as "https://*.example.com/*" (a full https URL, with * only in the host, as the port, or as a trailing /*). Fix it in the configuration file.',
    ],
    [
      "an empty label",
      { allow: ["https://a..example.com/"] },
      'host.connectors.allow has "https://a..example.com/", whose host name has an empty label or two * in a row. Fix it in the configuration file.',
    ],
    [
      "a * inside the path",
      { allow: ["https://a.example.com/*/mcp"] },
      'host.connectors.allow has "https://a.example.com/*/mcp"; * in a path is accepted only as a trailing /*. Fix it in the configuration file.',
    ],
    [
      "allowLoopback not a boolean",
      { allow: ["https://a.example.com/"], allowLoopback: "yes" },
      'host.connectors.allowLoopback must be true or false, not "yes". Fix it in the configuration file.',
    ],
  ])("refuses %s with a sentence", (_what, connectors, sentence) => {
    expect(() => policyOf(connectors)).toThrow(sentence);
  });
});
