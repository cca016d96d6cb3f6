// @vitest-environment jsdom
// A card's iframe is made once and never moved: moving an iframe in the DOM reloads it, and the
// view is then never delivered again (a blank card). The page runs as in the browser: the server
// events go through bindServerEvents into the stores, the message list renders in StrictMode,
// and the live cards attach over a real socket.io client to a real server on 127.0.0.1. A
// MutationObserver on the container records every node React removes or inserts.
import type {
  AttachReply,
  ChatMessage,
  MessagePart,
  ReplyChunk,
  ToolPartState,
} from "@mcp-chat-host/protocol";
import { act, StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { requestValue } from "../../socket/request";
import {
  startCardSocketServer,
  type CardSocketServer,
} from "../../cards/testing/card-socket-server";
import { bindServerEvents } from "../../socket/bind-server-events";
import { SocketProvider } from "../../socket/socket-context";
import { resetStores } from "../../test-support/reset-stores";
import { useThemeStore } from "../../state/theme-store";
import { FakeSocket } from "../../test-support/fake-socket";
import { cardDescriptor, chatMessage } from "../../test-support/records";
import { chunkEvent } from "../../test-support/reply-chunks";
import { MessageList } from "./message-list";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const sandboxOrigin = "http://127.0.0.1:45998";

function attachReply(instanceId: string): AttachReply {
  return {
    instanceId,
    title: "Notes",
    source: "notes",
    page: { html: "<p>notes</p>", sandboxOrigin, proxyUrl: `${sandboxOrigin}/proxy` },
    tool: { name: "open-notes", inputSchema: { type: "object" } },
    toolInput: {},
    toolResult: null,
    cancelled: null,
    appTools: [],
    restored: false,
    reportedAt: null,
  };
}

let server: CardSocketServer;
let socket: FakeSocket;
let unbind: () => void;
let container: HTMLDivElement;
let root: Root | null;
let observer: MutationObserver;
let records: MutationRecord[];

beforeEach(async () => {
  resetStores();
  server = await startCardSocketServer();
  server.answer("card:attach", ({ instanceId }) => attachReply(instanceId));
  server.answer("card:teardown", () => ({}));
  socket = new FakeSocket();
  unbind = bindServerEvents(socket);
  container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
  records = [];
  observer = new MutationObserver((found) => records.push(...found));
  observer.observe(container, { childList: true, subtree: true });
  await act(async () => {
    root?.render(
      <StrictMode>
        <SocketProvider value={{ socket: server.client, retry: () => undefined }}>
          <MessageList chatId="chat" ownsUnassignedCards />
        </SocketProvider>
      </StrictMode>,
    );
  });
});

afterEach(async () => {
  observer.disconnect();
  if (root !== null) await act(async () => root?.unmount());
  container.remove();
  // Each card tears down as it unmounts: wait for those, then one more round trip, so their
  // answers are back before the server closes.
  await vi.waitFor(() => expect(countOf("card:teardown")).toBe(countOf("card:attach")), {
    timeout: 5_000,
  });
  await requestValue(server.client, "card:teardown", { instanceId: "drain", reason: "unmounted" });
  unbind();
  await server.close();
});

/** Plays server events to the page, inside act. */
async function play(...events: Array<() => void>) {
  for (const event of events) {
    await act(async () => event());
  }
}

function created(message: ChatMessage) {
  return () => socket.serverEmit("message:created", { message });
}
function updated(message: ChatMessage) {
  return () => socket.serverEmit("message:updated", { message });
}
function chunk(messageId: string, sent: ReplyChunk) {
  return () => socket.serverEmit("message:chunk", chunkEvent(sent, messageId));
}
function delta(messageId: string, text: string, offset = 0) {
  return chunk(messageId, { type: "text-delta", id: "text-1", delta: text, offset });
}
/** A call whose card opens while the model still writes its input: before the call runs. */
function callWithCard(messageId: string, toolCallId: string, instanceId: string) {
  return [
    chunk(messageId, {
      type: "tool-input-start",
      toolCallId,
      toolName: "open-notes",
      source: "notes",
      startedAt: 1,
    }),
    chunk(messageId, {
      type: "data-card",
      toolCallId,
      card: cardDescriptor(instanceId, { messageId, toolCallId, inputStreaming: true }),
    }),
  ];
}

const tool = (
  toolCallId: string,
  instanceId: string,
  state: ToolPartState = "output-available",
): MessagePart => ({
  type: "tool",
  toolCallId,
  name: "open-notes",
  source: "notes",
  state,
  input: {},
  ...(state === "output-available" ? { output: {} } : {}),
  instanceId,
});
const text = (value: string): MessagePart => ({ type: "text", text: value });

function frameOf(instanceId: string): HTMLIFrameElement {
  const frame = container.querySelector<HTMLIFrameElement>(
    `[data-instance-id="${instanceId}"] [data-testid="card-iframe"]`,
  );
  if (frame === null) throw new Error(`No frame for ${instanceId}.`);
  return frame;
}

/** Waits until a card attached and its frame points at the sandbox proxy; bounded. */
async function attached(instanceId: string): Promise<HTMLIFrameElement> {
  await vi.waitFor(
    async () => {
      await act(async () => undefined);
      expect(frameOf(instanceId).getAttribute("src")).toBe(`${sandboxOrigin}/proxy`);
    },
    { timeout: 5_000, interval: 20 },
  );
  return frameOf(instanceId);
}

/**
 * Every recorded removal or insertion of the frame or of an element that holds it, from record
 * `since` on (the frame's own first insertion comes before).
 */
function touches(frame: HTMLIFrameElement, since = 0): string[] {
  const found: string[] = [];
  for (const record of records.slice(since)) {
    for (const node of record.removedNodes) {
      if (node === frame || node.contains(frame)) found.push(`removed ${node.nodeName}`);
    }
    for (const node of record.addedNodes) {
      if (node === frame || node.contains(frame)) found.push(`inserted ${node.nodeName}`);
    }
  }
  return found;
}

/** The wanted order of a message's parts as the page shows it (DOM order, then CSS order). */
function shownOrder(messageId: string): string[] {
  const list = container.querySelector(
    `[data-message-id="${messageId}"] [data-testid="message-parts"]`,
  );
  const wrappers = [...(list?.children ?? [])] as HTMLElement[];
  return wrappers
    .map((wrapper) => ({ key: wrapper.dataset.partKey ?? "", order: wrapper.style.order }))
    .map((entry, index) => ({ ...entry, rank: entry.order === "" ? index : Number(entry.order) }))
    .sort((left, right) => left.rank - right.rank)
    .map((entry) => entry.key);
}

function countOf(event: "card:attach" | "card:teardown"): number {
  return server.received.filter((entry) => entry.event === event).length;
}

async function click(testId: string, instanceId: string) {
  const button = container.querySelector<HTMLButtonElement>(
    `[data-instance-id="${instanceId}"] [data-testid="${testId}"]`,
  );
  if (button === null) throw new Error(`No ${testId} on ${instanceId}.`);
  await act(async () => button.click());
}

describe("a card's frame", () => {
  it("is never moved, removed or reloaded across a reply's whole life and the next reply", async () => {
    const streaming = { status: "streaming" as const, seq: 2, createdAt: 2 };
    await play(
      created(chatMessage("u1", { role: "user", text: "Show my notes", seq: 1 })),
      created(chatMessage("a1", streaming)),
      delta("a1", "Opening the notes."),
      ...callWithCard("a1", "t1", "host-1"),
    );
    const frame = await attached("host-1");
    records.length = 0;
    // The card is the call's child: it shows right after the call's row.
    expect(shownOrder("a1")).toEqual(["text-0", "tool-t1", "card-host-1"]);

    // The call's input arrives and it runs, returns, and more text follows.
    await play(
      chunk("a1", { type: "tool-input-delta", toolCallId: "t1", input: { q: "n" } }),
      chunk("a1", { type: "tool-input-available", toolCallId: "t1", input: { q: "notes" } }),
      chunk("a1", {
        type: "tool-output-available",
        toolCallId: "t1",
        output: {},
        cardResult: { content: [] },
        durationMs: 3,
      }),
      delta("a1", "Here.", "Opening the notes.".length),
    );
    expect(shownOrder("a1")).toEqual(["text-0", "tool-t1", "card-host-1", "text-1"]);

    // A save of the reply, as a snapshot or `message:updated` carries it, changes nothing.
    await play(
      updated(
        chatMessage("a1", {
          ...streaming,
          parts: [text("Opening the notes."), tool("t1", "host-1"), text("Here.")],
        }),
      ),
    );

    // The reply completes; the chat's turn ends; the theme and the tool list change.
    await play(
      updated(
        chatMessage("a1", {
          seq: 2,
          createdAt: 2,
          status: "complete",
          usage: { inputTokens: 10, outputTokens: 2 },
          parts: [text("Opening the notes."), tool("t1", "host-1"), text("Here.")],
        }),
      ),
      () =>
        socket.serverEmit("turn:state", {
          chatId: "chat",
          conversationId: "conv-1",
          running: false,
        }),
      () => useThemeStore.getState().toggle(),
      () =>
        socket.serverEmit("chat:tools", {
          chatId: "chat",
          tools: [
            {
              modelName: "notes__open-notes",
              name: "open-notes",
              source: "notes",
              renamed: "Two sources have it.",
            },
          ],
        }),
    );

    // A second exchange, with a card of its own.
    await play(
      created(chatMessage("u2", { role: "user", text: "And again", seq: 3, createdAt: 3 })),
      created(chatMessage("a2", { status: "streaming", seq: 4, createdAt: 4 })),
      ...callWithCard("a2", "t2", "host-2"),
    );
    const secondFrame = await attached("host-2");
    const secondSince = records.length;
    await play(
      updated(
        chatMessage("a2", {
          seq: 4,
          createdAt: 4,
          status: "complete",
          parts: [tool("t2", "host-2"), text("Done.")],
        }),
      ),
    );

    // Full screen, picture in picture, and back.
    await click("card-fullscreen", "host-1");
    expect(
      container.querySelector('[data-instance-id="host-1"]')?.getAttribute("data-display-mode"),
    ).toBe("fullscreen");
    await click("card-fullscreen", "host-1");
    await click("card-pip", "host-1");
    expect(
      container.querySelector('[data-instance-id="host-1"]')?.getAttribute("data-display-mode"),
    ).toBe("pip");
    await click("card-pip", "host-1");

    expect(touches(frame)).toEqual([]);
    expect(touches(secondFrame, secondSince)).toEqual([]);
    expect(frameOf("host-1")).toBe(frame);
    expect(frameOf("host-2")).toBe(secondFrame);
    // One attach per card: neither was mounted again.
    expect(countOf("card:attach")).toBe(2);
    expect(frame.isConnected && secondFrame.isConnected).toBe(true);
  });

  it("stays put when two cards of a reply change places; CSS shows the new order", async () => {
    const streaming = { status: "streaming" as const, seq: 2, createdAt: 2 };
    await play(
      created(chatMessage("a1", streaming)),
      ...callWithCard("a1", "t1", "host-1"),
      ...callWithCard("a1", "t2", "host-2"),
    );
    const first = await attached("host-1");
    const second = await attached("host-2");
    expect(shownOrder("a1")).toEqual(["tool-t1", "card-host-1", "tool-t2", "card-host-2"]);
    records.length = 0;
    await play(
      updated(
        chatMessage("a1", {
          ...streaming,
          parts: [tool("t2", "host-2"), tool("t1", "host-1"), text("Both.")],
        }),
      ),
    );
    expect(shownOrder("a1")).toEqual([
      "tool-t2",
      "card-host-2",
      "tool-t1",
      "card-host-1",
      "text-0",
    ]);
    expect(touches(first)).toEqual([]);
    expect(touches(second)).toEqual([]);
    expect(countOf("card:attach")).toBe(2);
  });
});
