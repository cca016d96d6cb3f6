import { describe, expect, it } from "vitest";
import { ConsentArming, consentArmDelayMs } from "./consent-arming";

function armingAt(start = 10_000, delayMs = 600) {
  const clock = { now: start };
  const arming = new ConsentArming({ now: () => clock.now, delayMs });
  return { clock, arming };
}

describe("ConsentArming", () => {
  it("is unarmed until the dialog has been visible for the delay", () => {
    const { clock, arming } = armingAt();
    expect(arming.isArmed()).toBe(false);
    expect(arming.activate()).toBe(false);
    arming.shown();
    expect(arming.armsAt).toBe(10_600);
    clock.now = 10_599;
    expect(arming.isArmed()).toBe(false);
    clock.now = 10_600;
    expect(arming.isArmed()).toBe(true);
  });

  it("refuses a press that began before it armed, even when the click comes after", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_100;
    arming.inputStarted();
    clock.now = 11_000;
    expect(arming.activate()).toBe(false);
  });

  it("refuses an auto-repeated key press (a key held from before)", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.inputStarted(true);
    expect(arming.activate()).toBe(false);
  });

  it("takes a fresh press after it armed, once: one press, one decision", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.inputStarted();
    expect(arming.activate()).toBe(true);
    clock.now = 11_100;
    arming.inputStarted(false);
    expect(arming.activate()).toBe(true);
  });

  it("takes a click with no press seen (assistive technology) once armed", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_300;
    expect(arming.activate()).toBe(false);
    clock.now = 10_700;
    expect(arming.activate()).toBe(true);
  });

  it("arms again from the next showing after the page was hidden", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_500;
    arming.hidden();
    clock.now = 20_000;
    expect(arming.isArmed()).toBe(false);
    arming.shown();
    clock.now = 20_599;
    expect(arming.activate()).toBe(false);
    clock.now = 20_600;
    expect(arming.activate()).toBe(true);
  });

  it("keeps the first showing when told twice", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_400;
    arming.shown();
    expect(arming.armsAt).toBe(10_600);
    expect(consentArmDelayMs).toBeGreaterThanOrEqual(500);
  });
});
