// @vitest-environment jsdom
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useHostStore } from "../../state/host-store";
import { resetStores } from "../../test-support/reset-stores";
import { FakeSocket } from "../../test-support/fake-socket";
import {
  act0,
  byTestId,
  click,
  pressKey,
  type Rendered,
  render,
  typeInto,
  waitUntil,
} from "../../test-support/render";
import { Composer } from "./composer";
import { composerKeyAction } from "./composer-keys";

describe("composerKeyAction", () => {
  it("sends on Enter only", () => {
    expect(composerKeyAction({ key: "Enter", shiftKey: false, isComposing: false })).toBe("send");
    expect(composerKeyAction({ key: "Enter", shiftKey: true, isComposing: false })).toBe("default");
    expect(composerKeyAction({ key: "Enter", shiftKey: false, isComposing: true })).toBe("default");
    expect(composerKeyAction({ key: "a", shiftKey: false, isComposing: false })).toBe("default");
  });
});

describe("Composer", () => {
  let socket: FakeSocket;
  let view: Rendered;
  let nextId = 0;

  async function mount(running = false) {
    view = await render(<Composer chatId="chat" chatTitle="Chat" running={running} />, socket);
    return {
      input: byTestId<HTMLTextAreaElement>(view.container, "composer-input"),
      send: byTestId<HTMLButtonElement>(view.container, "send-button"),
    };
  }

  beforeEach(() => {
    resetStores();
    socket = new FakeSocket();
    nextId = 0;
    socket.respond("message:send", () => ({
      ok: true,
      value: { messageId: `stored-${++nextId}`, duplicate: false },
    }));
  });
  afterEach(async () => view.unmount());

  it("disables Send while the box is empty or blank", async () => {
    const { input, send } = await mount();
    expect(send.disabled).toBe(true);
    await typeInto(input, "   \n ");
    expect(send.disabled).toBe(true);
    await typeInto(input, "hello");
    expect(send.disabled).toBe(false);
  });

  it("sends on Enter, then empties the box", async () => {
    const { input } = await mount();
    await typeInto(input, "  What time is it?  ");
    const event = await pressKey(input, "Enter");
    expect(event.defaultPrevented).toBe(true);
    await waitUntil(() => input.value === "", "the box is emptied");
    const sent = socket.sent("message:send");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ chatId: "chat", text: "What time is it?" });
    expect(sent[0]?.clientId).toMatch(/^m-/);
  });

  it("leaves Shift+Enter to the text box (a new line) and sends nothing", async () => {
    const { input } = await mount();
    await typeInto(input, "line one");
    const event = await pressKey(input, "Enter", { shiftKey: true });
    expect(event.defaultPrevented).toBe(false);
    await act0();
    expect(socket.sent("message:send")).toEqual([]);
  });

  it("keeps the text and says why when a send fails; a retry reuses the client id", async () => {
    socket.respond("message:send", () => ({
      ok: false,
      error: wireError("unavailable", "The model is not reachable; try again in a moment.", {
        retryable: true,
      }),
    }));
    const { input, send } = await mount();
    await typeInto(input, "Keep me");
    await click(send);
    await waitUntil(
      () => view.container.querySelector('[data-testid="composer-error"]') !== null,
      "the error shows",
    );
    expect(input.value).toBe("Keep me");
    expect(byTestId(view.container, "composer-error").textContent).toContain(
      "The model is not reachable; try again in a moment.",
    );
    socket.respond("message:send", () => ({
      ok: true,
      value: { messageId: "stored", duplicate: true },
    }));
    await click(send);
    await waitUntil(() => input.value === "", "the box is emptied");
    const [first, second] = socket.sent("message:send");
    expect(second?.clientId).toBe(first?.clientId);
    expect(view.container.querySelector('[data-testid="composer-error"]')).toBeNull();
  });

  it("shows Stop while a reply runs and sends turn:stop", async () => {
    socket.respond("turn:stop", () => ({ ok: true, value: { stopped: true } }));
    await mount(true);
    await click(byTestId(view.container, "stop-button"));
    await waitUntil(() => socket.sent("turn:stop").length === 1, "turn:stop is sent");
    expect(socket.sent("turn:stop")).toEqual([{ chatId: "chat" }]);
  });

  it("has no Stop button when no reply runs", async () => {
    await mount(false);
    expect(view.container.querySelector('[data-testid="stop-button"]')).toBeNull();
  });

  const notes = { instanceId: "card-1", title: "Notes", source: "notes-server" };

  it("puts an app's text in an empty box without taking the focus, and names the app", async () => {
    const { input } = await mount();
    expect(document.activeElement).not.toBe(input);
    await act0(() => useHostStore.getState().offerAppMessage("chat", "Compare\nthese two", notes));
    expect(input.value).toBe("Compare\nthese two");
    // No focus, so no key the person presses next sends it by surprise.
    expect(document.activeElement).not.toBe(input);
    expect(byTestId(view.container, "composer-author-app").textContent).toBe(
      "Notes (notes-server)",
    );
    // The note stays until the text is sent or cleared.
    await typeInto(input, "Compare\nthese two, please");
    expect(view.container.querySelector('[data-testid="composer-author"]')).not.toBeNull();
    await click(byTestId(view.container, "composer-author-clear"));
    expect(input.value).toBe("");
    expect(view.container.querySelector('[data-testid="composer-author"]')).toBeNull();
  });

  it("never replaces what the person typed: the app's text waits as a suggestion", async () => {
    const { input } = await mount();
    await typeInto(input, "my own words");
    await act0(() => useHostStore.getState().offerAppMessage("chat", "/call delete-all", notes));
    expect(input.value).toBe("my own words");
    expect(byTestId(view.container, "composer-suggestion-app").textContent).toBe(
      "Notes (notes-server)",
    );
    await click(byTestId(view.container, "composer-suggestion-use"));
    expect(input.value).toBe("my own words\n\n/call delete-all");
    expect(view.container.querySelector('[data-testid="composer-suggestion"]')).toBeNull();
    expect(byTestId(view.container, "composer-author-app").textContent).toBe(
      "Notes (notes-server)",
    );
  });

  it("keeps an app's text out of an empty box the person is typing in", async () => {
    const { input } = await mount();
    await act0(() => input.focus());
    await act0(() => useHostStore.getState().offerAppMessage("chat", "/call delete-all", notes));
    expect(input.value).toBe("");
    expect(document.activeElement).toBe(input);
    // Enter in the box sends nothing: the text is not in it.
    await pressKey(input, "Enter");
    expect(socket.sent("message:send")).toEqual([]);
    await click(byTestId(view.container, "composer-suggestion-dismiss"));
    expect(view.container.querySelector('[data-testid="composer-suggestion"]')).toBeNull();
    expect(input.value).toBe("");
  });

  it("forgets which app wrote the text once it is sent", async () => {
    const { input, send } = await mount();
    await act0(() => useHostStore.getState().offerAppMessage("chat", "Summarise", notes));
    await click(send);
    await waitUntil(() => input.value === "", "the box empties after the send");
    expect(socket.sent("message:send")).toMatchObject([{ chatId: "chat", text: "Summarise" }]);
    expect(view.container.querySelector('[data-testid="composer-author"]')).toBeNull();
  });

  it("is labelled for screen readers", async () => {
    const { input } = await mount();
    const label = view.container.querySelector(`label[for="${input.id}"]`);
    expect(label?.textContent).toBe("Message Chat");
  });
});
