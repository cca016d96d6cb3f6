// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSocket } from "../test-support/fake-socket";
import {
  act0,
  byTestId,
  click,
  pressKey,
  type Rendered,
  render,
  tabTo,
} from "../test-support/render";
import { ConsentQuestion } from "./consent-question";

describe("ConsentQuestion", () => {
  let view: Rendered;
  let clock = 1_000;
  const onAnswer = vi.fn<(allowed: boolean) => void>();

  beforeEach(async () => {
    clock = 1_000;
    onAnswer.mockClear();
    view = await render(
      <ConsentQuestion
        testId="question"
        heading="Show it in full screen?"
        refuseLabel="Keep it here"
        allowLabel="Full screen"
        refuseTestId="refuse"
        allowTestId="allow"
        onAnswer={onAnswer}
        arming={{ now: () => clock, delayMs: 600 }}
      >
        <p>The app asks to fill the window.</p>
      </ConsentQuestion>,
      new FakeSocket(),
    );
  });
  afterEach(async () => view.unmount());

  it("starts on the dialog box, and its first Tab stop is the no button", async () => {
    const box = byTestId(view.container, "question");
    expect(document.activeElement).toBe(box);
    await pressKey(box, "Tab");
    expect(document.activeElement).toBe(byTestId(view.container, "refuse"));
    // "Tab, then Enter" answers no.
    await pressKey(byTestId(view.container, "refuse"), "Enter");
    await click(byTestId(view.container, "refuse"));
    expect(onAnswer.mock.calls).toEqual([[false]]);
  });

  it("answers yes to a key only on the yes button the person moved to, after a moment there", async () => {
    const allow = byTestId(view.container, "allow");
    clock = 1_700;
    await tabTo(byTestId(view.container, "refuse"));
    await tabTo(allow);
    await pressKey(allow, "Enter");
    await click(allow);
    expect(onAnswer).not.toHaveBeenCalled();
    expect(byTestId(view.container, "consent-hint").getAttribute("data-refusal")).toBe("early");
    clock = 2_300;
    await pressKey(allow, "Enter");
    await click(allow);
    expect(onAnswer.mock.calls).toEqual([[true]]);
  });

  it("answers yes to a pointer press on the yes button after it armed", async () => {
    const allow = byTestId(view.container, "allow");
    clock = 1_700;
    await act0(() => {
      allow.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
    });
    await click(allow);
    expect(onAnswer.mock.calls).toEqual([[true]]);
  });
});
