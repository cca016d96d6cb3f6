// @vitest-environment jsdom
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { exportFileName } from "../../actions/conversation-actions";
import { useHostStore } from "../../state/host-store";

import { resetStores } from "../../test-support/reset-stores";
import { showMessages } from "../../test-support/store-state";
import { FakeSocket } from "../../test-support/fake-socket";
import { chatMessage, conversationSnapshot, conversationSummary } from "../../test-support/records";
import {
  act0,
  allByTestId,
  byTestId,
  click,
  pressKey,
  type Rendered,
  render,
  typeInto,
  waitUntil,
} from "../../test-support/render";
import { ConversationSidebar } from "./conversation-sidebar";

const conversations = useHostStore.getState;

describe("ConversationSidebar", () => {
  let socket: FakeSocket;
  let view: Rendered;
  const download = vi.fn<(document: Record<string, unknown>, fileName: string) => void>();

  function item(id: string): HTMLElement {
    const element = view.container.querySelector<HTMLElement>(
      `[data-testid="conversation-item"][data-conversation-id="${id}"]`,
    );
    if (element === null) throw new Error(`no item ${id}`);
    return element;
  }

  beforeEach(async () => {
    resetStores();
    window.history.replaceState(null, "", "/");
    download.mockReset();
    socket = new FakeSocket();
    conversations().setConversations([
      conversationSummary("c1", { title: "Groceries", updatedAt: 2 }),
      conversationSummary("c2", { title: "Trip plans", updatedAt: 1 }),
    ]);
    showMessages("c1", [chatMessage("m1", { conversationId: "c1" })]);
    view = await render(<ConversationSidebar download={download} />, socket);
  });
  afterEach(async () => view.unmount());

  it("lists the conversations, the open one marked", () => {
    const items = allByTestId(view.container, "conversation-item");
    expect(items.map((element) => element.textContent)).toEqual([
      expect.stringContaining("Groceries"),
      expect.stringContaining("Trip plans"),
    ]);
    expect(byTestId(item("c1"), "conversation-open").getAttribute("aria-current")).toBe("page");
  });

  it("New conversation sends conversation:create and opens it", async () => {
    socket.respond("conversation:create", () => ({
      ok: true,
      value: conversationSnapshot("c3"),
    }));
    await click(byTestId(view.container, "new-conversation"));
    await waitUntil(() => conversations().currentConversationId === "c3", "c3 is open");
    expect(socket.sent("conversation:create")).toEqual([{}]);
    expect(window.location.hash).toBe("#/c/c3");
    expect(useHostStore.getState().messagesByChat).toEqual({});
  });

  it("selecting an item sends conversation:open and shows it", async () => {
    socket.respond("conversation:open", ({ conversationId }) => ({
      ok: true,
      value: conversationSnapshot(conversationId, [
        chatMessage("m9", { conversationId, text: "Saved" }),
      ]),
    }));
    await click(byTestId(item("c2"), "conversation-open"));
    await waitUntil(() => conversations().currentConversationId === "c2", "c2 is open");
    expect(socket.sent("conversation:open")).toEqual([{ conversationId: "c2" }]);
    expect(useHostStore.getState().messagesByChat.chat?.order).toEqual(["m9"]);
    expect(window.location.hash).toBe("#/c/c2");
  });

  it("renames inline: Enter saves with conversation:rename", async () => {
    socket.respond("conversation:rename", ({ conversationId, title }) => ({
      ok: true,
      value: conversationSummary(conversationId, { title, updatedAt: 5 }),
    }));
    await click(byTestId(item("c2"), "conversation-rename"));
    const input = byTestId<HTMLInputElement>(view.container, "conversation-rename-input");
    await typeInto(input, "Summer trip");
    await act0(() => input.form?.requestSubmit());
    await waitUntil(
      () => conversations().conversations.some((entry) => entry.title === "Summer trip"),
      "the title changes",
    );
    expect(socket.sent("conversation:rename")).toEqual([
      { conversationId: "c2", title: "Summer trip" },
    ]);
    await waitUntil(
      () => view.container.querySelector('[data-testid="conversation-rename-input"]') === null,
      "the editor closes",
    );
  });

  it("Escape cancels a rename without sending anything", async () => {
    await click(byTestId(item("c2"), "conversation-rename"));
    const input = byTestId<HTMLInputElement>(view.container, "conversation-rename-input");
    await typeInto(input, "Nope");
    await pressKey(input, "Escape");
    expect(view.container.querySelector('[data-testid="conversation-rename-input"]')).toBeNull();
    expect(socket.sent("conversation:rename")).toEqual([]);
    expect(item("c2").textContent).toContain("Trip plans");
  });

  it("deletes only after a confirmation, and clears the open conversation", async () => {
    socket.respond("conversation:delete", () => ({ ok: true, value: { deleted: true } }));
    await click(byTestId(item("c1"), "conversation-delete"));
    expect(socket.sent("conversation:delete")).toEqual([]);
    await click(byTestId(view.container, "conversation-delete-confirm"));
    await waitUntil(() => conversations().conversations.length === 1, "the item is gone");
    expect(socket.sent("conversation:delete")).toEqual([{ conversationId: "c1" }]);
    expect(conversations().currentConversationId).toBeNull();
    expect(useHostStore.getState().messagesByChat).toEqual({});
  });

  it("Keep cancels a delete", async () => {
    await click(byTestId(item("c2"), "conversation-delete"));
    await click(byTestId(view.container, "conversation-delete-cancel"));
    expect(socket.sent("conversation:delete")).toEqual([]);
    expect(allByTestId(view.container, "conversation-item")).toHaveLength(2);
  });

  it("exports with conversation:export and saves a JSON file", async () => {
    const document = { version: 1, messages: [] };
    socket.respond("conversation:export", () => ({ ok: true, value: document }));
    await click(byTestId(item("c2"), "conversation-export"));
    await waitUntil(() => download.mock.calls.length === 1, "the file is saved");
    expect(socket.sent("conversation:export")).toEqual([{ conversationId: "c2" }]);
    expect(download).toHaveBeenCalledWith(document, "conversation-trip-plans.json");
  });

  it("imports a picked file with conversation:import, then opens it", async () => {
    const document = { version: 1, title: "From a friend" };
    socket
      .respond("conversation:import", () => ({
        ok: true,
        value: conversationSummary("c9", { title: "From a friend", imported: true, updatedAt: 9 }),
      }))
      .respond("conversation:open", ({ conversationId }) => ({
        ok: true,
        value: conversationSnapshot(conversationId),
      }));
    const input = byTestId<HTMLInputElement>(view.container, "import-file");
    const file = new File([JSON.stringify(document)], "export.json", { type: "application/json" });
    Object.defineProperty(input, "files", { value: [file], configurable: true });
    await act0(() => input.dispatchEvent(new Event("change", { bubbles: true })));
    await waitUntil(() => conversations().currentConversationId === "c9", "the import is open");
    expect(socket.sent("conversation:import")).toEqual([{ document }]);
    expect(socket.sent("conversation:open")).toEqual([{ conversationId: "c9" }]);
  });

  it("refuses a file that is not JSON, without sending it", async () => {
    const input = byTestId<HTMLInputElement>(view.container, "import-file");
    const file = new File(["not json"], "notes.txt");
    Object.defineProperty(input, "files", { value: [file], configurable: true });
    await act0(() => input.dispatchEvent(new Event("change", { bubbles: true })));
    await waitUntil(
      () => view.container.querySelector('[data-testid="sidebar-error"]') !== null,
      "the error shows",
    );
    expect(byTestId(view.container, "sidebar-error").textContent).toContain("not JSON");
    expect(socket.sent("conversation:import")).toEqual([]);
  });

  it("shows a failed action's error where the list is", async () => {
    socket.respond("conversation:open", () => ({
      ok: false,
      error: wireError("not_found", "That conversation no longer exists."),
    }));
    await click(byTestId(item("c2"), "conversation-open"));
    await waitUntil(
      () => view.container.querySelector('[data-testid="sidebar-error"]') !== null,
      "the error shows",
    );
    expect(byTestId(view.container, "sidebar-error").textContent).toContain(
      "That conversation no longer exists.",
    );
    expect(conversations().currentConversationId).toBe("c1");
  });
});

describe("exportFileName", () => {
  it("keeps only safe characters", () => {
    expect(exportFileName("../../etc/passwd")).toBe("conversation-etc-passwd.json");
    expect(exportFileName("Café & crème")).toBe("conversation-cafe-creme.json");
    expect(exportFileName("???")).toBe("conversation-untitled.json");
  });
});
