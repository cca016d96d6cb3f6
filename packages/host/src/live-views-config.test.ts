// The configuration's `host.liveViews`: absent means the page's default, a whole number from 1 to
// the maximum is taken, anything else stops the start with a sentence naming the field.
import { parseMcpConfig } from "@mcp-chat-host/connection";
import { describe, expect, it } from "vitest";
import { liveViewsFromConfig, maximumLiveViews } from "./live-views-config";

function configWith(host: unknown) {
  return parseMcpConfig({ mcpServers: {}, host });
}

describe("liveViewsFromConfig", () => {
  it("is undefined without a config, a host section or the field", () => {
    expect(liveViewsFromConfig(null)).toBeUndefined();
    expect(liveViewsFromConfig(parseMcpConfig({ mcpServers: {} }))).toBeUndefined();
    expect(liveViewsFromConfig(configWith({ messages: "compose" }))).toBeUndefined();
  });

  it("takes a whole number from 1 to the maximum", () => {
    expect(liveViewsFromConfig(configWith({ liveViews: 1 }))).toBe(1);
    expect(liveViewsFromConfig(configWith({ liveViews: 30 }))).toBe(30);
    expect(liveViewsFromConfig(configWith({ liveViews: maximumLiveViews }))).toBe(maximumLiveViews);
  });

  it("refuses anything else, saying what to fix", () => {
    for (const value of [0, -3, 2.5, maximumLiveViews + 1, "12", null]) {
      expect(() => liveViewsFromConfig(configWith({ liveViews: value }))).toThrow(
        `host.liveViews must be a whole number from 1 to ${maximumLiveViews}, not ${JSON.stringify(value)}. Fix it in the configuration file.`,
      );
    }
  });
});
