import { describe, expect, it } from "vitest";
import { ConsentArming, consentArmDelayMs } from "./consent-arming";

function armingAt(start = 10_000, delayMs = 600) {
  const clock = { now: start };
  const arming = new ConsentArming({ now: () => clock.now, delayMs });
  return { clock, arming };
}

/** Two buttons of a dialog: allow (the one asked about) and another one. */
const allow = { name: "allow" };
const other = { name: "other" };

const key = (target: object | null, repeat = false) => ({ kind: "key" as const, target, repeat });
const pointer = (target: object | null) => ({ kind: "pointer" as const, target });

describe("ConsentArming", () => {
  it("is unarmed until the dialog has been visible for the delay", () => {
    const { clock, arming } = armingAt();
    expect(arming.isArmed()).toBe(false);
    expect(arming.activate(allow)).toBe("early");
    arming.shown();
    expect(arming.armsAt).toBe(10_600);
    clock.now = 10_599;
    expect(arming.isArmed()).toBe(false);
    clock.now = 10_600;
    expect(arming.isArmed()).toBe(true);
  });

  it("refuses a pointer pressed before it armed, even when the click comes after", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_100;
    arming.inputStarted(pointer(allow));
    clock.now = 11_000;
    expect(arming.activate(allow)).toBe("early");
  });

  it("refuses a double click where the button appeared: both presses land before it armed", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    for (const at of [10_050, 10_250]) {
      clock.now = at;
      arming.inputStarted(pointer(allow));
      expect(arming.activate(allow)).toBe("early");
    }
  });

  it("takes a pointer press on the button after it armed, once: one press, one decision", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.inputStarted(pointer(allow));
    expect(arming.activate(allow)).toBe("act");
    clock.now = 11_100;
    arming.inputStarted(pointer(allow));
    expect(arming.activate(allow)).toBe("act");
  });

  it("refuses a pointer pressed elsewhere in the dialog (released over the button)", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.inputStarted(pointer(null));
    expect(arming.activate(allow)).toBe("not-chosen");
    arming.inputStarted(pointer(other));
    expect(arming.activate(allow)).toBe("not-chosen");
  });

  it("refuses an auto-repeated key press (a key held from before), wherever the focus is", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.focusMoved(allow, true);
    clock.now = 12_000;
    arming.inputStarted(key(allow, true));
    expect(arming.activate(allow)).toBe("early");
  });

  it("refuses Enter on a button the focus reached without the person: the host's code or a held Tab", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.focusMoved(allow, false);
    clock.now = 12_000;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("not-chosen");
    expect(arming.keyArmsAt(allow)).toBeNull();
  });

  it("refuses Enter after a Tab that reached the button before the dialog armed (“Tab Tab Tab, then Enter”)", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_300;
    arming.focusMoved(allow, true);
    clock.now = 12_000;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("not-chosen");
  });

  it("refuses Enter typed in one go with the Tab that reached the button, after it armed", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    // The view's "Tab Tab Tab Enter", typed a second after the dialog appeared.
    clock.now = 11_000;
    arming.focusMoved(other, true);
    clock.now = 11_150;
    arming.focusMoved(allow, true);
    expect(arming.keyArmsAt(allow)).toBe(11_750);
    clock.now = 11_300;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("early");
  });

  it("refuses Enter that went down on another control (a field, the dialog box)", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.focusMoved(null, true);
    clock.now = 12_000;
    arming.inputStarted(key(null));
    expect(arming.activate(allow)).toBe("not-chosen");
    arming.focusMoved(other, true);
    clock.now = 13_000;
    arming.inputStarted(key(other));
    expect(arming.activate(allow)).toBe("not-chosen");
  });

  it("takes Enter on a button the person tabbed or clicked to, after it held the focus a moment", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.focusMoved(allow, true);
    clock.now = 11_600;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("act");
    // The focus moved away and back: it is the new move that counts.
    arming.focusMoved(other, true);
    clock.now = 12_000;
    arming.focusMoved(allow, true);
    clock.now = 12_100;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("early");
    clock.now = 12_600;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("act");
  });

  it("forgets where the focus was when it leaves the dialog", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 11_000;
    arming.focusMoved(allow, true);
    arming.focusMoved(null, false);
    clock.now = 12_000;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("not-chosen");
  });

  it("takes a click with no press seen (assistive technology) once armed", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_300;
    expect(arming.activate(allow)).toBe("early");
    clock.now = 10_700;
    expect(arming.activate(allow)).toBe("act");
  });

  it("arms again from the next showing after the page was hidden, forgetting the focus", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_700;
    arming.focusMoved(allow, true);
    arming.hidden();
    clock.now = 20_000;
    expect(arming.isArmed()).toBe(false);
    arming.shown();
    clock.now = 20_599;
    expect(arming.activate(allow)).toBe("early");
    clock.now = 20_600;
    arming.inputStarted(key(allow));
    expect(arming.activate(allow)).toBe("not-chosen");
    expect(arming.activate(allow)).toBe("act");
  });

  it("keeps the first showing when told twice; the focus delay defaults to the arming delay", () => {
    const { clock, arming } = armingAt();
    arming.shown();
    clock.now = 10_400;
    arming.shown();
    expect(arming.armsAt).toBe(10_600);
    expect(consentArmDelayMs).toBeGreaterThanOrEqual(500);
    clock.now = 10_600;
    arming.focusMoved(allow, true);
    expect(arming.keyArmsAt(allow)).toBe(11_200);
    expect(arming.keyArmsAt(other)).toBeNull();
  });
});
