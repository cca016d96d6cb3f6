// @vitest-environment jsdom
// The card component in React StrictMode with the page's real socket.io client and a real server
// on 127.0.0.1: it attaches once, its controls switch modes without replacing the iframe, and it
// tears down once when it goes away.
import type { AttachReply, CardDescriptor } from "@mcp-chat-host/protocol";
import { outerFrameSandbox, sandboxTokenAllowList } from "@mcp-chat-host/sandbox";
import { act, StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { teardownCards } from "../state/page-cards";
import { useHostStore } from "../state/host-store";
import { resetStores } from "../test-support/reset-stores";
import { showCards } from "../test-support/store-state";
import { CardView } from "./card-view";
import { resultCutMetaKey } from "./result-cut";
import { startCardSocketServer, type CardSocketServer } from "./testing/card-socket-server";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const sandboxOrigin = "http://127.0.0.1:45998";

const card: CardDescriptor = {
  instanceId: "card-7",
  conversationId: "conv-1",
  chatId: "chat-1",
  kind: "card",
  source: "notes",
  tool: "open-notes",
  arguments: { folder: "inbox" },
  result: { content: [{ type: "text", text: "3 notes" }] },
  title: "Notes",
  checked: false,
  createdAt: 1,
};

const reply: AttachReply = {
  instanceId: "card-7",
  title: "Notes",
  source: "notes",
  page: { html: "<p>notes</p>", sandboxOrigin, proxyUrl: `${sandboxOrigin}/proxy` },
  tool: { name: "open-notes", inputSchema: { type: "object" } },
  toolInput: { folder: "inbox" },
  toolResult: { content: [{ type: "text", text: "3 notes" }] },
  cancelled: null,
  appTools: [],
  restored: true,
  reportedAt: 1_700_000_000_000,
};

let server: CardSocketServer;
let container: HTMLDivElement;
let root: Root | null;

beforeEach(async () => {
  resetStores();
  server = await startCardSocketServer();
  container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
});

afterEach(async () => {
  if (root !== null) await act(async () => root?.unmount());
  container.remove();
  await server.close();
});

async function renderCard(
  onClose: (instanceId: string) => void = () => undefined,
  shown: CardDescriptor = card,
) {
  // The page holds the card (its `cards` entry) before its view mounts.
  showCards([shown]);
  await act(async () => {
    root?.render(
      <StrictMode>
        <CardView
          card={shown}
          consentArming={{ delayMs: 0 }}
          chatId="chat-1"
          socket={server.client}
          theme="light"
          onClose={onClose}
        />
      </StrictMode>,
    );
  });
}

/** Waits, inside act, until `condition` holds; bounded. */
async function until(condition: () => boolean) {
  await vi.waitFor(
    async () => {
      await act(async () => undefined);
      if (!condition()) throw new Error("not yet");
    },
    { timeout: 5_000, interval: 20 },
  );
}

function byTestId(id: string): HTMLElement | null {
  return container.querySelector(`[data-testid="${id}"]`);
}

async function click(element: Element | null) {
  expect(element).not.toBeNull();
  await act(async () => {
    (element as HTMLElement).click();
  });
}

describe("CardView", () => {
  it("attaches once under StrictMode and shows the title bar and the sandbox frame", async () => {
    server.answer("card:attach", () => reply);
    await renderCard();
    await until(() => byTestId("card-iframe")?.getAttribute("src") === `${sandboxOrigin}/proxy`);
    expect(server.received.filter((entry) => entry.event === "card:attach")).toHaveLength(1);
    const frame = byTestId("card-iframe") as HTMLIFrameElement;
    // The sandbox package's one definition: every token the proxy may give the view.
    expect(frame.getAttribute("sandbox")).toBe(outerFrameSandbox);
    expect(outerFrameSandbox.split(" ")).toEqual([...sandboxTokenAllowList]);
    expect(frame.getAttribute("referrerpolicy")).toBe("origin");
    expect(frame.title).toBe("Notes (app from notes)");
    expect(byTestId("card-title")?.textContent).toBe("Notes");
    expect(byTestId("card-reported-at")?.textContent).toMatch(/^reported /);
    for (const id of [
      "card",
      "card-fullscreen",
      "card-pip",
      "card-close",
      "card-show-request",
      "card-log-button",
    ]) {
      expect(byTestId(id), id).not.toBeNull();
    }
  });

  it("switches display modes with classes only: the iframe element stays the same", async () => {
    server.answer("card:attach", () => reply);
    await renderCard();
    await until(() => byTestId("card-iframe")?.getAttribute("src") !== null);
    const frame = byTestId("card-iframe");
    const holder = frame?.parentElement;
    await click(byTestId("card-fullscreen"));
    expect(byTestId("card")?.dataset.displayMode).toBe("fullscreen");
    expect(byTestId("card")?.className).toContain("mch-card--fullscreen");
    expect(byTestId("card-iframe")).toBe(frame);
    expect(byTestId("card-iframe")?.parentElement).toBe(holder);
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    });
    expect(byTestId("card")?.dataset.displayMode).toBe("inline");
    await click(byTestId("card-pip"));
    expect(byTestId("card")?.dataset.displayMode).toBe("pip");
    expect(byTestId("card-iframe")).toBe(frame);
    await click(byTestId("card-pip"));
    expect(byTestId("card")?.dataset.displayMode).toBe("inline");
    expect(byTestId("card-iframe")).toBe(frame);
  });

  it("shows the opening call on request and the log on demand", async () => {
    server.answer("card:attach", () => reply);
    await renderCard();
    await until(() => byTestId("card-iframe")?.getAttribute("src") !== null);
    await click(byTestId("card-show-request"));
    expect(byTestId("card-request")?.textContent).toContain('"folder": "inbox"');
    expect(byTestId("card-request")?.textContent).toContain("3 notes");
    await click(byTestId("card-log-button"));
    expect(byTestId("card-log")?.textContent).toContain("Nothing logged yet.");
  });

  it("shows why the view cannot load, with the result's text", async () => {
    server.answer("card:attach", () => ({
      code: "not_found",
      message: "This app isn't available any more.",
      retryable: false,
    }));
    await renderCard();
    await until(() => byTestId("card-error") !== null);
    expect(byTestId("card-error")?.textContent).toContain("This app isn't available any more.");
    expect(byTestId("card-error")?.textContent).toContain("3 notes");
    await act(async () => root?.unmount());
    root = null;
    expect(server.received.map((entry) => entry.event)).toEqual(["card:attach"]);
  });

  it("tears down once when it unmounts, and forgets its state", async () => {
    server.answer("card:attach", () => reply);
    server.answer("card:teardown", () => ({}));
    await renderCard();
    await until(() => byTestId("card-iframe")?.getAttribute("src") !== null);
    await act(async () => root?.unmount());
    root = null;
    expect((await server.next("card:teardown")).payload).toEqual({
      instanceId: "card-7",
      reason: "unmounted",
    });
    await vi.waitFor(() => expect(useHostStore.getState().cardViews["card-7"]).toBeUndefined(), {
      timeout: 5_000,
    });
    expect(server.received.filter((entry) => entry.event === "card:teardown")).toHaveLength(1);
  });

  it("closes with its button: teardown first, then onClose", async () => {
    server.answer("card:attach", () => reply);
    server.answer("card:teardown", () => ({}));
    const onClose = vi.fn();
    await renderCard(onClose);
    await until(() => byTestId("card-iframe")?.getAttribute("src") !== null);
    await click(byTestId("card-close"));
    await until(() => onClose.mock.calls.length === 1);
    expect(onClose).toHaveBeenCalledWith("card-7");
    expect((await server.next("card:teardown")).payload).toEqual({
      instanceId: "card-7",
      reason: "closed",
    });
  });

  it("can be torn down by the page before a conversation switch", async () => {
    server.answer("card:attach", () => reply);
    server.answer("card:teardown", () => ({}));
    await renderCard();
    await until(() => byTestId("card-iframe")?.getAttribute("src") !== null);
    await act(async () =>
      teardownCards({ reason: "conversation-closed", conversationId: "conv-1" }),
    );
    expect((await server.next("card:teardown")).payload).toEqual({
      instanceId: "card-7",
      reason: "conversation-closed",
    });
    await act(async () => root?.unmount());
    root = null;
    expect(server.received.filter((entry) => entry.event === "card:teardown")).toHaveLength(1);
  });

  it("shows the host's bar in full screen: the app's name and an Exit button outside the frame", async () => {
    server.answer("card:attach", () => reply);
    await renderCard();
    await until(() => byTestId("card-iframe")?.getAttribute("src") !== null);
    expect(byTestId("card-fullscreen-bar")).toBeNull();
    await click(byTestId("card-fullscreen"));
    const bar = byTestId("card-fullscreen-bar");
    expect(bar?.textContent).toContain("Notes");
    expect(bar?.textContent).toContain("from notes");
    expect(bar?.contains(byTestId("card-iframe"))).toBe(false);
    await click(byTestId("card-exit-fullscreen"));
    expect(byTestId("card")?.dataset.displayMode).toBe("inline");
    expect(byTestId("card-fullscreen-bar")).toBeNull();
  });

  it("asks, naming the app, before the view may use the camera, and shows the answer", async () => {
    const withCamera: AttachReply = {
      ...reply,
      page: { ...reply.page, permissions: { camera: {} } },
    };
    server.answer("card:attach", () => withCamera);
    await renderCard();
    await until(() => byTestId("permission-prompt") !== null);
    const prompt = byTestId("permission-prompt");
    expect(prompt?.closest('[data-testid="host-layer"]')?.getAttribute("popover")).toBe("manual");
    expect(prompt?.textContent).toContain("Let “Notes” use your camera?");
    expect(byTestId("permission-prompt-source")?.textContent).toBe("notes");
    expect(byTestId("card-iframe")?.hasAttribute("src")).toBe(false);
    await click(byTestId("permission-allow"));
    await until(() => byTestId("card-iframe")?.getAttribute("src") !== null);
    expect(byTestId("permission-prompt")).toBeNull();
    expect(byTestId("card-iframe")?.getAttribute("allow")).toBe("camera");
    expect(byTestId("card-permissions")?.textContent).toContain("Camera");
    await click(byTestId("card-permissions"));
    expect(byTestId("card-permissions-panel")?.textContent).toContain("Camera: allowed");
    expect(byTestId("card-permission-withdraw")).not.toBeNull();
  });

  it("says in the title bar when the host cut the card's result", async () => {
    const cut = {
      content: [{ type: "text", text: "the start" }],
      _meta: { [resultCutMetaKey]: { originalChars: 8_000_000, limit: 200_000 } },
    };
    server.answer("card:attach", () => ({ ...reply, toolResult: cut }));
    await renderCard(undefined, { ...card, result: cut });
    expect(byTestId("card-result-cut")?.textContent).toBe(
      "The result was cut to 200,000 characters",
    );
  });
});
