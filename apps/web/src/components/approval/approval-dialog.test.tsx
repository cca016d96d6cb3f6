// @vitest-environment jsdom
import { wireError } from "@mcp-chat-host/protocol";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { onHostQuestion } from "../../consent/host-question";
import { useHostStore } from "../../state/host-store";
import { resetStores } from "../../test-support/reset-stores";
import { FakeSocket } from "../../test-support/fake-socket";
import { approvalRequest } from "../../test-support/records";
import {
  act0,
  byTestId,
  click,
  pressKey,
  type Rendered,
  render,
  tabTo,
  typeInto,
  waitUntil,
} from "../../test-support/render";
import { ApprovalDialog } from "./approval-dialog";

const approvals = useHostStore.getState;

function queuedIds(): string[] {
  return approvals().approvalQueue.map((request) => request.approvalId);
}

describe("approvals store", () => {
  beforeEach(() => resetStores());

  it("queues requests once each, oldest first, and settles any of them", () => {
    approvals().enqueueApproval(approvalRequest("a1"));
    approvals().enqueueApproval(approvalRequest("a2"));
    approvals().enqueueApproval(approvalRequest("a3"));
    approvals().enqueueApproval(approvalRequest("a2"));
    expect(queuedIds()).toEqual(["a1", "a2", "a3"]);
    approvals().settleApproval("a2");
    expect(queuedIds()).toEqual(["a1", "a3"]);
    approvals().settleApproval("unknown");
    expect(queuedIds()).toEqual(["a1", "a3"]);
  });

  it("clears the error with the request it belongs to", () => {
    approvals().enqueueApproval(approvalRequest("a1"));
    approvals().enqueueApproval(approvalRequest("a2"));
    approvals().setApprovalError("Failed.");
    approvals().settleApproval("a2");
    expect(approvals().approvalError).toBe("Failed.");
    approvals().settleApproval("a1");
    expect(approvals().approvalError).toBeNull();
  });
});

describe("ApprovalDialog", () => {
  let socket: FakeSocket;
  let view: Rendered;

  beforeEach(async () => {
    resetStores();
    socket = new FakeSocket().respond("approval:answer", () => ({ ok: true, value: {} }));
    // Armed at once: these tests are about the answers; arming has tests of its own below.
    view = await render(<ApprovalDialog arming={{ delayMs: 0 }} />, socket);
  });
  afterEach(async () => view.unmount());

  const dialog = () => view.container.querySelector<HTMLElement>('[data-testid="approval-dialog"]');

  it("shows nothing while nothing is pending", () => {
    expect(dialog()).toBeNull();
  });

  it("shows the card, the tool, its arguments, its hints and the question", async () => {
    await act0(() =>
      approvals().enqueueApproval(
        approvalRequest("a1", {
          title: "Notes",
          source: "notes-server",
          tool: "delete-note",
          arguments: { id: 7, reason: "old" },
          annotations: { destructiveHint: true, openWorldHint: true },
          question: "Delete the note “Groceries”?",
        }),
      ),
    );
    const element = dialog();
    expect(element?.getAttribute("role")).toBe("alertdialog");
    expect(element?.getAttribute("aria-modal")).toBe("true");
    expect(byTestId(view.container, "approval-card-title").textContent).toBe("Notes");
    expect(element?.textContent).toContain("notes-server");
    expect(byTestId(view.container, "approval-tool").textContent).toBe("delete-note");
    expect(byTestId(view.container, "approval-arguments").textContent).toBe(
      JSON.stringify({ id: 7, reason: "old" }, null, 2),
    );
    expect(view.container.querySelector('[data-testid="badge-destructive"]')).not.toBeNull();
    expect(view.container.querySelector('[data-testid="badge-open-world"]')).not.toBeNull();
    expect(view.container.querySelector('[data-testid="badge-read-only"]')).toBeNull();
    expect(byTestId(view.container, "approval-question").textContent).toBe(
      "Delete the note “Groceries”?",
    );
    // The dialog takes the focus, so the keyboard is in it.
    expect(document.activeElement).toBe(element);
  });

  it.each([
    ["approval-allow-once", "allow-once"],
    ["approval-allow-card", "allow-card"],
    ["approval-allow-conversation", "allow-conversation"],
  ] as const)("%s answers %s", async (testId, decision) => {
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
    await click(byTestId(view.container, testId));
    await waitUntil(() => dialog() === null, "the dialog closes");
    expect(socket.sent("approval:answer")).toEqual([{ approvalId: "a1", decision }]);
  });

  it("refuses with the typed reason", async () => {
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
    await typeInto(byTestId<HTMLInputElement>(view.container, "approval-reason"), "  Not now ");
    await click(byTestId(view.container, "approval-refuse"));
    await waitUntil(() => dialog() === null, "the dialog closes");
    expect(socket.sent("approval:answer")).toEqual([
      { approvalId: "a1", decision: "refuse", reason: "Not now" },
    ]);
  });

  it("refuses on Escape", async () => {
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
    const element = dialog();
    if (element === null) throw new Error("no dialog");
    await pressKey(element, "Escape");
    await waitUntil(() => dialog() === null, "the dialog closes");
    expect(socket.sent("approval:answer")).toEqual([{ approvalId: "a1", decision: "refuse" }]);
  });

  it("shows several pending requests one at a time, with a counter", async () => {
    await act0(() => {
      approvals().enqueueApproval(approvalRequest("a1", { tool: "first-tool" }));
      approvals().enqueueApproval(approvalRequest("a2", { tool: "second-tool" }));
    });
    expect(byTestId(view.container, "approval-counter").textContent).toBe("1 of 2");
    expect(byTestId(view.container, "approval-tool").textContent).toBe("first-tool");
    await click(byTestId(view.container, "approval-allow-once"));
    await waitUntil(
      () => dialog()?.getAttribute("data-approval-id") === "a2",
      "the second request shows",
    );
    expect(byTestId(view.container, "approval-tool").textContent).toBe("second-tool");
    expect(view.container.querySelector('[data-testid="approval-counter"]')).toBeNull();
  });

  it("drops a request settled elsewhere and shows the next", async () => {
    await act0(() => {
      approvals().enqueueApproval(approvalRequest("a1"));
      approvals().enqueueApproval(approvalRequest("a2"));
    });
    await act0(() => approvals().settleApproval("a1"));
    expect(dialog()?.getAttribute("data-approval-id")).toBe("a2");
    expect(socket.sent("approval:answer")).toEqual([]);
  });

  it("keeps the request on screen with the error when the answer fails", async () => {
    socket.respond("approval:answer", () => ({
      ok: false,
      error: wireError("internal", "The server failed; answer again."),
    }));
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
    await click(byTestId(view.container, "approval-allow-once"));
    await waitUntil(
      () => view.container.querySelector('[data-testid="approval-error"]') !== null,
      "the error shows",
    );
    expect(dialog()).not.toBeNull();
    expect(byTestId(view.container, "approval-error").textContent).toContain(
      "The server failed; answer again.",
    );
  });

  it("drops a request the server no longer knows", async () => {
    socket.respond("approval:answer", () => ({
      ok: false,
      error: wireError("not_found", "No such approval."),
    }));
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
    await click(byTestId(view.container, "approval-allow-once"));
    await waitUntil(() => dialog() === null, "the dialog closes");
  });

  it("starts on the dialog box; Tab and Shift+Tab go to Refuse first and wrap inside the dialog", async () => {
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
    const element = dialog();
    if (element === null) throw new Error("no dialog");
    const refuse = byTestId(view.container, "approval-refuse");
    const reason = byTestId(view.container, "approval-reason");
    const allowOnce = byTestId(view.container, "approval-allow-once");
    const allowConversation = byTestId(view.container, "approval-allow-conversation");
    expect(document.activeElement).toBe(element);
    const first = await pressKey(element, "Tab");
    expect(first.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(refuse);
    element.focus();
    await pressKey(element, "Tab", { shiftKey: true });
    expect(document.activeElement).toBe(refuse);
    // The tab order: Refuse, the reason, then the allow buttons.
    const order = [...element.querySelectorAll("button, input")];
    expect(order.indexOf(refuse)).toBe(0);
    expect(order.indexOf(reason)).toBe(1);
    expect(order.indexOf(allowOnce)).toBe(2);
    const backward = await pressKey(refuse, "Tab", { shiftKey: true });
    expect(backward.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(allowConversation);
    const forward = await pressKey(allowConversation, "Tab");
    expect(forward.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(refuse);
  });

  it("refuses on Enter in the reason field (the second Tab stop)", async () => {
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
    await pressKey(byTestId(view.container, "approval-reason"), "Enter");
    await waitUntil(() => dialog() === null, "the dialog closes");
    expect(socket.sent("approval:answer")).toEqual([{ approvalId: "a1", decision: "refuse" }]);
  });
});

describe("ApprovalDialog's arming", () => {
  let socket: FakeSocket;
  let view: Rendered;
  let clock = 1_000;

  beforeEach(async () => {
    resetStores();
    clock = 1_000;
    socket = new FakeSocket().respond("approval:answer", () => ({ ok: true, value: {} }));
    view = await render(<ApprovalDialog arming={{ now: () => clock, delayMs: 600 }} />, socket);
    await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
  });
  afterEach(async () => view.unmount());

  /** A key press on a button as the browser makes it: keydown, then the button's click. */
  async function pressOn(element: HTMLElement, options: KeyboardEventInit = {}) {
    await pressKey(element, "Enter", options);
    await click(element);
  }

  it("tells the host a question appeared, so a card in full screen leaves it", async () => {
    const appeared = vi.fn();
    const stop = onHostQuestion(appeared);
    try {
      await act0(() => approvals().settleApproval("a1"));
      await act0(() => approvals().enqueueApproval(approvalRequest("a2")));
      expect(appeared).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it("opens in a top-layer popover over the whole page, holding the focus", () => {
    const element = byTestId(view.container, "approval-dialog");
    expect(element.closest('[data-testid="host-layer"]')?.getAttribute("popover")).toBe("manual");
    expect(element.getAttribute("aria-modal")).toBe("true");
    expect(document.activeElement).toBe(element);
  });

  it("ignores Enter pressed in the first moment after it appeared, then takes a fresh press", async () => {
    const element = byTestId(view.container, "approval-dialog");
    const allowOnce = byTestId(view.container, "approval-allow-once");
    expect(allowOnce.getAttribute("aria-disabled")).toBe("true");
    // "Press Tab, then Enter": the press lands while the dialog is still unarmed.
    clock = 1_200;
    await pressOn(allowOnce);
    expect(socket.sent("approval:answer")).toEqual([]);
    expect(byTestId(view.container, "consent-hint").getAttribute("data-refusal")).toBe("early");
    // The person tabs to Allow once after it armed: Refuse, the reason, then Allow once.
    clock = 1_700;
    await tabTo(byTestId(view.container, "approval-refuse"));
    await tabTo(byTestId(view.container, "approval-reason"));
    await tabTo(allowOnce);
    expect(element.getAttribute("data-key-armed")).toBe("false");
    // A held Enter repeats into the dialog: nothing, even once the button armed for keys.
    clock = 2_300;
    await pressOn(allowOnce, { repeat: true });
    expect(socket.sent("approval:answer")).toEqual([]);
    expect(byTestId(view.container, "consent-hint").getAttribute("data-refusal")).toBe("early");
    // A fresh press on the button the person moved to answers.
    await pressOn(allowOnce);
    await waitUntil(() => socket.sent("approval:answer").length === 1, "the answer is sent");
    expect(socket.sent("approval:answer")).toEqual([{ approvalId: "a1", decision: "allow-once" }]);
  });

  it("ignores Enter on Allow once when the person did not move there (“Tab Tab Tab Enter” in one go)", async () => {
    const allowOnce = byTestId(view.container, "approval-allow-once");
    // Focus put there by code, not by the person: no key press on it counts.
    clock = 1_700;
    await act0(() => allowOnce.focus());
    clock = 3_000;
    await pressOn(allowOnce);
    expect(byTestId(view.container, "consent-hint").getAttribute("data-refusal")).toBe(
      "not-chosen",
    );
    // Tabbed to, but the Enter follows at once, as a rehearsed sequence does.
    await tabTo(byTestId(view.container, "approval-allow-card"));
    await tabTo(allowOnce, { shiftKey: true });
    clock = 3_100;
    await pressOn(allowOnce);
    expect(byTestId(view.container, "consent-hint").getAttribute("data-refusal")).toBe("early");
    // A held Tab (auto-repeat) moves the focus, but not as the person's choice.
    await tabTo(byTestId(view.container, "approval-allow-card"), { repeat: true });
    clock = 5_000;
    await pressOn(byTestId(view.container, "approval-allow-card"));
    expect(socket.sent("approval:answer")).toEqual([]);
  });

  it("ignores a pointer pressed before the dialog armed and released after", async () => {
    const allowCard = byTestId(view.container, "approval-allow-card");
    clock = 1_300;
    await act0(() => {
      allowCard.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
    });
    clock = 1_700;
    await click(allowCard);
    expect(socket.sent("approval:answer")).toEqual([]);
    // A press elsewhere in the dialog, released over the button: not on the button.
    await act0(() => {
      byTestId(view.container, "approval-tool").dispatchEvent(
        new PointerEvent("pointerdown", { bubbles: true }),
      );
    });
    await click(allowCard);
    expect(socket.sent("approval:answer")).toEqual([]);
    await act0(() => {
      allowCard.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
    });
    await click(allowCard);
    await waitUntil(() => socket.sent("approval:answer").length === 1, "the answer is sent");
    expect(socket.sent("approval:answer")).toEqual([{ approvalId: "a1", decision: "allow-card" }]);
  });

  it("lets the person refuse at once: refusing is never armed", async () => {
    await click(byTestId(view.container, "approval-refuse"));
    await waitUntil(() => socket.sent("approval:answer").length === 1, "the refusal is sent");
    expect(socket.sent("approval:answer")).toEqual([{ approvalId: "a1", decision: "refuse" }]);
  });
});

describe("ApprovalDialog's armed marks", () => {
  it("marks the dialog armed, then key-armed once the button the person tabbed to held the focus a moment", async () => {
    vi.useFakeTimers();
    resetStores();
    let clock = 1_000;
    const socket = new FakeSocket();
    const view = await render(
      <ApprovalDialog arming={{ now: () => clock, delayMs: 600 }} />,
      socket,
    );
    try {
      await act0(() => approvals().enqueueApproval(approvalRequest("a1")));
      const element = byTestId(view.container, "approval-dialog");
      expect(element.getAttribute("data-armed")).toBe("false");
      clock = 1_600;
      await act(async () => vi.advanceTimersByTime(600));
      expect(element.getAttribute("data-armed")).toBe("true");
      await tabTo(byTestId(view.container, "approval-refuse"));
      await tabTo(byTestId(view.container, "approval-reason"));
      await tabTo(byTestId(view.container, "approval-allow-once"));
      expect(element.getAttribute("data-key-armed")).toBe("false");
      clock = 2_200;
      await act(async () => vi.advanceTimersByTime(600));
      expect(element.getAttribute("data-key-armed")).toBe("true");
    } finally {
      await view.unmount();
      vi.useRealTimers();
    }
  });
});
