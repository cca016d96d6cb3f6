// The configuration's `host.pageCalls`: absent means the default budget, a valid object is taken
// (a missing field keeps its default), anything else stops the start with a sentence naming the
// field. The server side (a raised budget lets a card call past the default burst) is proved in
// create-host-server.page-calls.test.ts.
import { parseMcpConfig } from "@mcp-chat-host/connection";
import { describe, expect, it } from "vitest";
import { defaultPageCallRate, maximumPageCallRate, pageCallsFromConfig } from "./page-calls-config";

function configWith(host: unknown) {
  return parseMcpConfig({ mcpServers: {}, host });
}

describe("pageCallsFromConfig", () => {
  it("is undefined without a config, a host section or the field", () => {
    expect(pageCallsFromConfig(null)).toBeUndefined();
    expect(pageCallsFromConfig(parseMcpConfig({ mcpServers: {} }))).toBeUndefined();
    expect(pageCallsFromConfig(configWith({ liveViews: 12 }))).toBeUndefined();
  });

  it("takes both fields, or one with the other's default", () => {
    expect(pageCallsFromConfig(configWith({ pageCalls: { perSecond: 100, burst: 200 } }))).toEqual({
      perSecond: 100,
      burst: 200,
    });
    expect(pageCallsFromConfig(configWith({ pageCalls: { perSecond: 0.5 } }))).toEqual({
      perSecond: 0.5,
      burst: defaultPageCallRate.burst,
    });
    expect(pageCallsFromConfig(configWith({ pageCalls: { burst: 1 } }))).toEqual({
      perSecond: defaultPageCallRate.perSecond,
      burst: 1,
    });
    expect(
      pageCallsFromConfig(
        configWith({
          pageCalls: { perSecond: maximumPageCallRate, burst: maximumPageCallRate },
        }),
      ),
    ).toEqual({ perSecond: maximumPageCallRate, burst: maximumPageCallRate });
  });

  it("refuses a value that is not an object", () => {
    for (const value of [20, "fast", null, [20, 40]]) {
      expect(() => pageCallsFromConfig(configWith({ pageCalls: value }))).toThrow(
        `host.pageCalls must be an object such as { "perSecond": 20, "burst": 40 }, not ${JSON.stringify(value)}. Fix it in the configuration file.`,
      );
    }
  });

  it("refuses a bad perSecond or burst, naming the field", () => {
    for (const perSecond of [0, -1, maximumPageCallRate + 1, "20", Number.POSITIVE_INFINITY]) {
      expect(() => pageCallsFromConfig(configWith({ pageCalls: { perSecond } }))).toThrow(
        `host.pageCalls.perSecond must be a number above 0 and at most ${maximumPageCallRate}`,
      );
    }
    for (const burst of [0, 2.5, maximumPageCallRate + 1, "40", null]) {
      expect(() => pageCallsFromConfig(configWith({ pageCalls: { burst } }))).toThrow(
        `host.pageCalls.burst must be a whole number from 1 to ${maximumPageCallRate}, not ${JSON.stringify(burst)}. Fix it in the configuration file.`,
      );
    }
  });

  it("refuses a field it does not know, so a typo is not silently ignored", () => {
    expect(() => pageCallsFromConfig(configWith({ pageCalls: { perMinute: 600 } }))).toThrow(
      'host.pageCalls takes only "perSecond", "burst", "perSource" and "perSession", not "perMinute". Fix it in the configuration file.',
    );
  });

  it("takes the budgets of a source's and a session's cards, a left-out field the card's", () => {
    expect(
      pageCallsFromConfig(
        configWith({
          pageCalls: {
            perSecond: 10,
            burst: 20,
            perSource: { perSecond: 15 },
            perSession: { perSecond: 50, burst: 100 },
          },
        }),
      ),
    ).toEqual({
      perSecond: 10,
      burst: 20,
      perSource: { perSecond: 15, burst: 20 },
      perSession: { perSecond: 50, burst: 100 },
    });
  });

  it("refuses a bad perSource or perSession, naming the field", () => {
    expect(() =>
      pageCallsFromConfig(configWith({ pageCalls: { perSource: { burst: 0 } } })),
    ).toThrow(
      `host.pageCalls.perSource.burst must be a whole number from 1 to ${maximumPageCallRate}, not 0. Fix it in the configuration file.`,
    );
    expect(() => pageCallsFromConfig(configWith({ pageCalls: { perSession: 80 } }))).toThrow(
      'host.pageCalls.perSession must be an object such as { "perSecond": 20, "burst": 40 }, not 80. Fix it in the configuration file.',
    );
    expect(() =>
      pageCallsFromConfig(configWith({ pageCalls: { perSession: { perSource: {} } } })),
    ).toThrow(
      'host.pageCalls.perSession takes only "perSecond" and "burst", not "perSource". Fix it in the configuration file.',
    );
  });
});
