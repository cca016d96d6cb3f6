// @vitest-environment jsdom
import type { ChatMessage, ReplyChunk } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useHostStore } from "../../state/host-store";

import { resetStores } from "../../test-support/reset-stores";
import { showCards, showMessages } from "../../test-support/store-state";

import { FakeSocket } from "../../test-support/fake-socket";
import { cardDescriptor, chatMessage } from "../../test-support/records";
import { chunkEvent } from "../../test-support/reply-chunks";
import {
  act0,
  allByTestId,
  byTestId,
  click,
  type Rendered,
  render,
  waitUntil,
} from "../../test-support/render";
import { MessageList } from "./message-list";
import { MessageView } from "./message-view";

describe("MessageView", () => {
  let view: Rendered;
  beforeEach(() => resetStores());
  afterEach(async () => view.unmount());

  it("renders a reply's markdown sanitised, and a person's text as typed", async () => {
    view = await render(
      <>
        <MessageView message={chatMessage("u1", { role: "user", text: "**not bold** <b>x</b>" })} />
        <MessageView
          message={chatMessage("a1", { text: "**bold** <img src=x onerror=alert(1)>" })}
        />
      </>,
      new FakeSocket(),
    );
    const user = byTestId(view.container, "message-user");
    expect(user.querySelector("strong")).toBeNull();
    expect(user.textContent).toBe("**not bold** <b>x</b>");
    const reply = byTestId(view.container, "message-assistant");
    expect(reply.querySelector("strong")?.textContent).toBe("bold");
    expect(reply.querySelector("img")).toBeNull();
  });

  it("says which app wrote a message it sent as the person", async () => {
    const fromApp = { instanceId: "card-1", source: "notes", title: "Notes" };
    view = await render(
      <>
        <MessageView message={{ ...chatMessage("u1", { role: "user", text: "Hi" }), fromApp }} />
        <MessageView message={chatMessage("u2", { role: "user", text: "Mine" })} />
      </>,
      new FakeSocket(),
    );
    expect(allByTestId(view.container, "message-from-app").map((note) => note.textContent)).toEqual(
      ["Written by the app Notes (notes) and sent as yours"],
    );
  });

  it("copies a code block's text with its Copy button", async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    view = await render(
      <MessageView message={chatMessage("a1", { text: "```sh\nnpm start\n```" })} />,
      new FakeSocket(),
    );
    const button = view.container.querySelector<HTMLButtonElement>("button[data-copy-code]");
    if (button === null) throw new Error("no copy button");
    await click(button);
    expect(writeText).toHaveBeenCalledWith("npm start");
    await waitUntil(() => button.textContent === "Copied", "the button says Copied");
  });

  it("says what happened to a reply that did not complete", async () => {
    view = await render(
      <>
        <MessageView message={chatMessage("a1", { status: "error", error: "Rate limited." })} />
        <MessageView message={chatMessage("a2", { status: "interrupted", text: "Half" })} />
        <MessageView message={chatMessage("a3", { status: "stopped", text: "Partial" })} />
      </>,
      new FakeSocket(),
    );
    expect(byTestId(view.container, "message-error").textContent).toContain("Rate limited.");
    expect(byTestId(view.container, "message-error").textContent).toContain(
      "Send your message again",
    );
    expect(byTestId(view.container, "message-interrupted").textContent).toContain("interrupted");
    expect(byTestId(view.container, "message-stopped").textContent).toBe("You stopped this reply.");
  });

  it("shows tool rows and cards where they happened", async () => {
    const message = chatMessage("a1", {
      status: "streaming",
      parts: [
        { type: "text", text: "Opening it." },
        {
          type: "tool",
          toolCallId: "t1",
          name: "open-notes",
          state: "input-available",
          input: { q: 1 },
          instanceId: "host-1",
        },
        { type: "text", text: "It is open." },
        // A card shown by hand, where its part is.
        { type: "card", instanceId: "host-2" },
      ],
    });
    showCards([
      cardDescriptor("host-1", { messageId: "a1", toolCallId: "t1" }),
      cardDescriptor("host-2", { messageId: "a1" }),
    ]);
    view = await render(<MessageView message={message} />, new FakeSocket());
    const body = byTestId(view.container, "message-parts");
    // Each part's element, or the first marked element inside it (a card's slot holds the card).
    const order = [...body.children].map((wrapper) => {
      const first = wrapper.firstElementChild;
      return (
        first?.getAttribute("data-testid") ??
        first?.querySelector("[data-testid]")?.getAttribute("data-testid") ??
        first?.className
      );
    });
    // The card a call opened is the call's child: right after its row.
    expect(order).toEqual(["markdown", "tool-row", "card", "markdown", "card"]);
    expect(allByTestId(view.container, "card")).toHaveLength(2);
    // Once the person closed it, the card leaves; a one-line note stays where it was.
    await act0(() => useHostStore.getState().cardClosed("host-1", "closed"));
    expect(allByTestId(view.container, "card")).toHaveLength(1);
    expect(byTestId(view.container, "card-closed").textContent).toContain("Notes");
  });
});

describe("ToolRowView", () => {
  let view: Rendered;
  beforeEach(() => resetStores());
  afterEach(async () => view.unmount());

  it("shows progress while running and the result once finished", async () => {
    showMessages("conv-1", [chatMessage("a1", { status: "streaming" })]);
    const apply = (chunk: ReplyChunk) =>
      useHostStore.getState().replyChunkArrived(chunkEvent(chunk, "a1"));
    apply({ type: "tool-input-start", toolCallId: "t1", toolName: "count", startedAt: Date.now() });
    apply({ type: "tool-input-available", toolCallId: "t1", input: { to: 4 } });
    apply({ type: "data-tool-progress", toolCallId: "t1", progress: 1, total: 4 });
    view = await render(<MessageList chatId="chat" ownsUnassignedCards />, new FakeSocket());
    const row = byTestId(view.container, "tool-row");
    expect(row.getAttribute("data-status")).toBe("running");
    const bar = row.querySelector("progress");
    expect(bar?.getAttribute("value")).toBe("1");
    expect(bar?.getAttribute("max")).toBe("4");
    expect(row.querySelector(".spinner")).not.toBeNull();
    expect(row.textContent).toContain(JSON.stringify({ to: 4 }, null, 2));
    await act0(() =>
      apply({
        type: "tool-output-available",
        toolCallId: "t1",
        output: { counted: 4 },
        durationMs: 2_500,
      }),
    );
    const done = byTestId(view.container, "tool-row");
    expect(done.getAttribute("data-status")).toBe("done");
    expect(done.querySelector("progress")).toBeNull();
    expect(byTestId(done, "tool-row-time").textContent).toBe("2.5 s");
    expect(done.textContent).toContain(JSON.stringify({ counted: 4 }, null, 2));
  });

  it("says why a call was refused, and that a call of a stopped reply did not finish", async () => {
    const message = chatMessage("a1", {
      status: "stopped",
      parts: [
        {
          type: "tool",
          toolCallId: "t1",
          name: "delete-all",
          state: "output-denied",
          input: {},
          errorText: "Not allowed.",
        },
        { type: "tool", toolCallId: "t2", name: "count", state: "input-available", input: {} },
      ],
    });
    view = await render(<MessageView message={message} />, new FakeSocket());
    const [refused, unfinished] = allByTestId(view.container, "tool-row");
    expect(refused?.getAttribute("data-status")).toBe("refused");
    expect(refused?.textContent).toContain("Not allowed.");
    expect(unfinished?.getAttribute("data-status")).toBe("unfinished");
    expect(unfinished?.textContent).toContain("Did not finish");
  });
});

describe("a reply's footer", () => {
  let view: Rendered;
  let socket: FakeSocket;
  beforeEach(() => {
    resetStores();
    socket = new FakeSocket();
  });
  afterEach(async () => view.unmount());

  const failed = chatMessage("a1", {
    seq: 2,
    status: "error",
    error: "The model provider is limiting requests; try again in 30 seconds.",
    retryable: true,
  });

  async function renderChat(messages: ChatMessage[], running: string[] = []) {
    showMessages("conv-1", messages, running);
    view = await render(<MessageList chatId="chat" ownsUnassignedCards />, socket);
  }

  it("offers Retry on the chat's last failed reply and keeps its error in plain words", async () => {
    socket.respond("turn:retry", () => ({ ok: true, value: { messageId: "a2" } }));
    await renderChat([chatMessage("u1", { role: "user", text: "hi" }), failed]);
    const note = byTestId(view.container, "message-error");
    expect(note.textContent).toBe(
      "This reply failed: The model provider is limiting requests; try again in 30 seconds.",
    );
    await click(byTestId(view.container, "retry-button"));
    expect(socket.sent("turn:retry")).toEqual([{ chatId: "chat", messageId: "a1" }]);
    expect(useHostStore.getState().notices).toEqual([]);
  });

  it("says so in a notice when the server refuses the retry", async () => {
    socket.respond("turn:retry", () => ({
      ok: false,
      error: { code: "busy", message: "A reply is still being written.", retryable: true },
    }));
    await renderChat([failed]);
    const button = byTestId<HTMLButtonElement>(view.container, "retry-button");
    await click(button);
    await waitUntil(() => useHostStore.getState().notices.length === 1, "a notice shows");
    expect(useHostStore.getState().notices[0]).toMatchObject({
      level: "error",
      message: "The reply could not be run again: A reply is still being written.",
    });
    await waitUntil(() => !button.disabled, "the button is enabled again");
  });

  it("offers Retry after a stop or an interruption, never while the chat runs or on older replies", async () => {
    await renderChat([chatMessage("a0", { seq: 1, status: "stopped" })]);
    expect(allByTestId(view.container, "retry-button")).toHaveLength(1);
    await act0(() => useHostStore.getState().setRunning("chat", true));
    expect(allByTestId(view.container, "retry-button")).toHaveLength(0);
    await act0(() => useHostStore.getState().setRunning("chat", false));
    await act0(() =>
      useHostStore.getState().messageArrived(chatMessage("a1", { seq: 2, status: "interrupted" })),
    );
    const buttons = allByTestId(view.container, "retry-button");
    expect(buttons).toHaveLength(1);
    expect(buttons[0]?.closest("[data-message-id]")?.getAttribute("data-message-id")).toBe("a1");
    // Without Retry beside it, the older note still says what to do.
    await act0(() =>
      useHostStore.getState().messageArrived(chatMessage("a2", { seq: 3, status: "complete" })),
    );
    expect(allByTestId(view.container, "retry-button")).toHaveLength(0);
    expect(byTestId(view.container, "message-interrupted").textContent).toContain(
      "Send your message again",
    );
  });

  it("shows the tokens a reply used, small and readable", async () => {
    await renderChat([
      chatMessage("a1", {
        text: "Done.",
        usage: { inputTokens: 1_204, cachedInputTokens: 1_000, outputTokens: 56 },
      }),
    ]);
    const usage = byTestId(view.container, "message-usage");
    expect(usage.textContent).toBe("Tokens used: 1,204 tokens in (1,000 cached) · 56 out");
    expect(usage.querySelector(".visually-hidden")?.textContent).toBe("Tokens used: ");
  });
});

describe("the Thinking line", () => {
  let view: Rendered;
  beforeEach(() => {
    resetStores();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(10_000);
  });
  afterEach(async () => {
    await view.unmount();
    vi.useRealTimers();
  });

  it("counts the seconds since the reply started, until text arrives", async () => {
    const message = chatMessage("a1", { status: "streaming", createdAt: 7_500 });
    showMessages("conv-1", [message]);
    view = await render(<MessageList chatId="chat" ownsUnassignedCards />, new FakeSocket());
    expect(byTestId(view.container, "message-thinking-time").textContent).toBe("2 s");
    await act0(() => vi.advanceTimersByTime(3_000));
    expect(byTestId(view.container, "message-thinking-time").textContent).toBe("5 s");
    await act0(() =>
      useHostStore
        .getState()
        .replyChunkArrived(
          chunkEvent({ type: "text-delta", id: "text-1", delta: "Hi", offset: 0 }, "a1"),
        ),
    );
    expect(allByTestId(view.container, "message-thinking")).toHaveLength(0);
  });
});

describe("tool names", () => {
  let view: Rendered;
  beforeEach(() => resetStores());
  afterEach(async () => view.unmount());

  it("shows a call's own tool name and source, and the model's name only as a hint", async () => {
    const message = chatMessage("a1", {
      parts: [
        {
          type: "tool",
          toolCallId: "t1",
          name: "get-time",
          source: "basic-vanillajs",
          modelName: "basic_vanillajs__get-time",
          state: "output-available",
          input: {},
          output: {},
        },
      ],
    });
    view = await render(<MessageView message={message} />, new FakeSocket());
    const name = byTestId(view.container, "tool-row-name");
    expect(name.textContent).toBe("get-time");
    expect(name.title).toBe("The model calls it basic_vanillajs__get-time");
    expect(byTestId(view.container, "tool-row-source").textContent).toBe("from basic-vanillajs");
    expect(byTestId(view.container, "tool-row-model-name").textContent).toBe(
      "The model calls this tool basic_vanillajs__get-time.",
    );
  });

  it("finds the real name of a refused call that only has the model's name", async () => {
    useHostStore.getState().setChatTools("chat", [
      {
        modelName: "notes__delete",
        name: "delete",
        source: "notes",
        renamed: "Two sources have a tool named delete.",
      },
    ]);
    const message = chatMessage("a1", {
      parts: [
        {
          type: "tool",
          toolCallId: "t9",
          name: "notes__delete",
          state: "output-denied",
          input: {},
          errorText: "No.",
        },
      ],
    });
    showMessages("conv-1", [message]);
    view = await render(<MessageView message={message} />, new FakeSocket());
    expect(byTestId(view.container, "tool-row-name").textContent).toBe("delete");
    expect(byTestId(view.container, "tool-row-source").textContent).toBe("from notes");
  });

  it("names a card's tool by its own name, with the model's name as a hint", async () => {
    useHostStore
      .getState()
      .setChatTools("chat", [
        { modelName: "notes__open-notes", name: "open-notes", source: "notes", renamed: "Taken." },
      ]);
    showCards([cardDescriptor("host-1", { messageId: "a1" })]);
    const message = chatMessage("a1", { parts: [{ type: "card", instanceId: "host-1" }] });
    view = await render(<MessageView message={message} />, new FakeSocket());
    const source = byTestId(view.container, "card-source");
    expect(source.textContent).toBe("notes · open-notes, which the model calls notes__open-notes");
    expect(source.title).toBe("The model calls this tool notes__open-notes");
  });
});
