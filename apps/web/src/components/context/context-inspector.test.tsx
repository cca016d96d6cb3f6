// @vitest-environment jsdom
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useHostStore } from "../../state/host-store";
import { resetStores } from "../../test-support/reset-stores";
import { FakeSocket } from "../../test-support/fake-socket";
import {
  act0,
  byTestId,
  pressKey,
  type Rendered,
  render,
  waitUntil,
} from "../../test-support/render";
import { ContextInspector } from "./context-inspector";

const chat = { id: "chat", title: "Chat", messages: "compose", context: true } as const;

describe("ContextInspector", () => {
  let socket: FakeSocket;
  let view: Rendered;
  let closed: number;

  async function open() {
    view = await render(<ContextInspector chat={chat} onClose={() => closed++} />, socket);
  }

  beforeEach(() => {
    resetStores();
    closed = 0;
    socket = new FakeSocket();
  });
  afterEach(async () => view.unmount());

  it("asks the server and shows exactly the text the model got", async () => {
    const text = '<app-context app="Notes" id="host-1">\nGroceries: milk\n</app-context>';
    socket.respond("context:inspect", ({ chatId }) => ({
      ok: true,
      value: { chatId, text, builtAt: Date.UTC(2026, 0, 2, 3, 4, 5), injected: true },
    }));
    await open();
    await waitUntil(
      () => view.container.querySelector('[data-testid="context-text"]') !== null,
      "the text shows",
    );
    expect(socket.sent("context:inspect")).toEqual([{ chatId: "chat" }]);
    expect(byTestId(view.container, "context-text").textContent).toBe(text);
    expect(byTestId(view.container, "context-meta").textContent).toContain("sent to the model");
  });

  it("says when no app reported anything, and when the text was not sent", async () => {
    socket.respond("context:inspect", ({ chatId }) => ({
      ok: true,
      value: { chatId, text: null, builtAt: 1_000, injected: false },
    }));
    await open();
    await waitUntil(
      () => view.container.querySelector('[data-testid="context-empty"]') !== null,
      "the empty note shows",
    );
    expect(byTestId(view.container, "context-empty").textContent).toBe("No app reported anything.");
    expect(byTestId(view.container, "context-meta").textContent).toContain("not sent");
  });

  it("follows context:built while it is open", async () => {
    socket.respond("context:inspect", ({ chatId }) => ({
      ok: true,
      value: { chatId, text: null, builtAt: null, injected: true },
    }));
    await open();
    await waitUntil(
      () => view.container.querySelector('[data-testid="context-empty"]') !== null,
      "the first answer shows",
    );
    expect(byTestId(view.container, "context-meta").textContent).toContain("No turn");
    await act0(() =>
      useHostStore
        .getState()
        .recordContext({ chatId: "chat", text: "new report", builtAt: 2_000, injected: true }),
    );
    expect(byTestId(view.container, "context-text").textContent).toBe("new report");
  });

  it("shows the server's error", async () => {
    socket.respond("context:inspect", () => ({
      ok: false,
      error: wireError("not_found", "No such chat."),
    }));
    await open();
    await waitUntil(
      () => view.container.querySelector('[role="alert"]') !== null,
      "the error shows",
    );
    expect(view.container.querySelector('[role="alert"]')?.textContent).toContain("No such chat.");
  });

  it("closes on Escape", async () => {
    socket.respond("context:inspect", ({ chatId }) => ({
      ok: true,
      value: { chatId, text: null, builtAt: null, injected: true },
    }));
    await open();
    await pressKey(byTestId(view.container, "context-inspector"), "Escape");
    expect(closed).toBe(1);
  });
});
