// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useCardsStore } from "../../state/cards-store";
import { resetStores } from "../../state/reset-stores";
import { useToolsStore } from "../../state/tools-store";
import { FakeSocket } from "../../test-support/fake-socket";
import { cardDescriptor, chatMessage } from "../../test-support/records";
import {
  act0,
  allByTestId,
  byTestId,
  click,
  type Rendered,
  render,
  waitUntil,
} from "../../test-support/render";
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
        { type: "tool-call", toolCallId: "t1", name: "open-notes", arguments: { q: 1 } },
        { type: "card", instanceId: "host-1" },
      ],
    });
    useToolsStore.getState().replaceFromMessages([message]);
    useCardsStore.getState().replace([cardDescriptor("host-1", { messageId: "a1" })], []);
    view = await render(<MessageView message={message} />, new FakeSocket());
    const body = byTestId(view.container, "message-assistant");
    const order = [...body.children].map(
      (child) => child.getAttribute("data-testid") ?? child.className,
    );
    expect(order).toEqual(["markdown", "tool-row", "card"]);
    expect(allByTestId(view.container, "card")).toHaveLength(1);
    // Once the person closed it, the card leaves; a one-line note stays where it was.
    await act0(() => useCardsStore.getState().closed("host-1", "closed"));
    expect(allByTestId(view.container, "card")).toHaveLength(0);
    expect(byTestId(view.container, "card-closed").textContent).toContain("Notes");
  });
});

describe("ToolRowView", () => {
  let view: Rendered;
  beforeEach(() => resetStores());
  afterEach(async () => view.unmount());

  it("shows progress while running and the result once finished", async () => {
    const message = chatMessage("a1", {
      status: "streaming",
      parts: [{ type: "tool-call", toolCallId: "t1", name: "count", arguments: { to: 4 } }],
    });
    useToolsStore.getState().started({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "a1",
      toolCallId: "t1",
      name: "count",
      arguments: { to: 4 },
      startedAt: Date.now(),
    });
    useToolsStore
      .getState()
      .progressed({ chatId: "chat", toolCallId: "t1", progress: 1, total: 4 });
    view = await render(<MessageView message={message} />, new FakeSocket());
    const row = byTestId(view.container, "tool-row");
    expect(row.getAttribute("data-status")).toBe("running");
    const bar = row.querySelector("progress");
    expect(bar?.getAttribute("value")).toBe("1");
    expect(bar?.getAttribute("max")).toBe("4");
    expect(row.querySelector(".spinner")).not.toBeNull();
    expect(row.textContent).toContain(JSON.stringify({ to: 4 }, null, 2));
    await act0(() =>
      useToolsStore.getState().finished({
        chatId: "chat",
        toolCallId: "t1",
        name: "count",
        isError: false,
        value: { counted: 4 },
        durationMs: 2_500,
      }),
    );
    expect(row.getAttribute("data-status")).toBe("done");
    expect(row.querySelector("progress")).toBeNull();
    expect(byTestId(row, "tool-row-time").textContent).toBe("2.5 s");
    expect(row.textContent).toContain(JSON.stringify({ counted: 4 }, null, 2));
  });
});
