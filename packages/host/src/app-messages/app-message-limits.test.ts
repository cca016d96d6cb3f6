import { describe, expect, it } from "vitest";
import {
  APP_MESSAGE_BURST,
  APP_MESSAGE_BUSY,
  APP_MESSAGE_INTERVAL_MS,
  AppMessageLimits,
} from "./app-message-limits";

describe("AppMessageLimits", () => {
  it("refuses while the chat is answering, without spending the card's budget", () => {
    const limits = new AppMessageLimits({ now: () => 0, burst: 1 });
    expect(limits.take("card-1", true)).toEqual({
      ok: false,
      code: "busy",
      reason: APP_MESSAGE_BUSY,
    });
    expect(limits.take("card-1", false)).toEqual({ ok: true });
  });

  it("lets a card submit its burst, then one per interval", () => {
    let clock = 0;
    const limits = new AppMessageLimits({ now: () => clock });
    for (let index = 0; index < APP_MESSAGE_BURST; index += 1) {
      expect(limits.take("card-1", false)).toEqual({ ok: true });
    }
    expect(limits.take("card-1", false)).toEqual({
      ok: false,
      code: "rate_limited",
      reason: "This app sent too many messages in a short time; it may send the next in 10 s.",
    });
    // Each card has its own budget.
    expect(limits.take("card-2", false)).toEqual({ ok: true });
    clock += APP_MESSAGE_INTERVAL_MS / 2;
    expect(limits.take("card-1", false)).toMatchObject({
      ok: false,
      reason: "This app sent too many messages in a short time; it may send the next in 5 s.",
    });
    clock += APP_MESSAGE_INTERVAL_MS / 2;
    expect(limits.take("card-1", false)).toEqual({ ok: true });
    expect(limits.take("card-1", false)).toMatchObject({ ok: false, code: "rate_limited" });
  });

  it("forgets a closed card's budget", () => {
    const limits = new AppMessageLimits({ now: () => 0, burst: 1 });
    expect(limits.take("card-1", false)).toEqual({ ok: true });
    expect(limits.take("card-1", false)).toMatchObject({ ok: false });
    limits.forget("card-1");
    expect(limits.take("card-1", false)).toEqual({ ok: true });
  });

  it("needs a positive interval", () => {
    expect(() => new AppMessageLimits({ now: () => 0, intervalMs: 0 })).toThrow(RangeError);
  });
});
