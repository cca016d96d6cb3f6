// @vitest-environment jsdom
// The person reads the audit of the open conversation.
import type { AuditEntry } from "@mcp-chat-host/protocol";
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useHostStore } from "../../state/host-store";
import { resetStores } from "../../test-support/reset-stores";
import { FakeSocket } from "../../test-support/fake-socket";
import { cardDescriptor } from "../../test-support/records";
import {
  allByTestId,
  byTestId,
  pressKey,
  type Rendered,
  render,
  waitUntil,
} from "../../test-support/render";
import { AuditPanel } from "./audit-panel";

const entries: AuditEntry[] = [
  {
    id: "3",
    at: Date.UTC(2026, 0, 2, 10, 0, 3),
    instanceId: "card-1",
    source: "notes",
    tool: "delete-note",
    verdict: "refused",
    reason: "The person refused: not now",
    durationMs: 4_200,
    approval: { answeredBy: "person", answer: "refuse", scope: "call", answeredAt: 1 },
  },
  {
    id: "2",
    at: Date.UTC(2026, 0, 2, 10, 0, 2),
    instanceId: "card-1",
    source: "notes",
    tool: "save-notes",
    verdict: "allowed",
    durationMs: 30,
    approval: { answeredBy: "remembered", answer: "allow-card", scope: "card" },
  },
  {
    id: "1",
    at: Date.UTC(2026, 0, 2, 10, 0, 1),
    instanceId: "gone",
    source: "tasks",
    tool: "list-tasks",
    verdict: "failed",
    reason: "The server crashed.",
    durationMs: 12,
  },
];

describe("AuditPanel", () => {
  let socket: FakeSocket;
  let view: Rendered;
  let closed: number;

  beforeEach(() => {
    resetStores();
    closed = 0;
    socket = new FakeSocket();
    useHostStore
      .getState()
      .cardOpened(cardDescriptor("card-1", { title: "Notes", source: "notes" }));
  });
  afterEach(async () => view.unmount());

  it("shows which app called what, the verdict, who answered, newest first", async () => {
    socket.respond("audit:list", ({ conversationId }) => ({
      ok: true,
      value: { conversationId, entries },
    }));
    view = await render(<AuditPanel conversationId="conv-1" onClose={() => closed++} />, socket);
    await waitUntil(
      () => view.container.querySelector('[data-testid="audit-list"]') !== null,
      "the list shows",
    );
    expect(socket.sent("audit:list")).toEqual([{ conversationId: "conv-1" }]);
    const rows = allByTestId(view.container, "audit-entry");
    expect(rows.map((row) => row.dataset.tool)).toEqual([
      "delete-note",
      "save-notes",
      "list-tasks",
    ]);
    expect(byTestId(rows[0] ?? view.container, "audit-source").textContent).toBe("Notes (notes)");
    expect(byTestId(rows[0] ?? view.container, "audit-verdict").textContent).toContain(
      "refused: The person refused: not now",
    );
    expect(byTestId(rows[0] ?? view.container, "audit-approval").textContent).toContain(
      "You answered: refused.",
    );
    expect(byTestId(rows[1] ?? view.container, "audit-approval").textContent).toBe(
      "Your earlier answer covered it: allowed for this card.",
    );
    // A card no longer on the page is named by its source.
    expect(byTestId(rows[2] ?? view.container, "audit-source").textContent).toBe("tasks");
    expect(byTestId(rows[2] ?? view.container, "audit-verdict").textContent).toContain(
      "ran and failed: The server crashed.",
    );
    expect(rows[2]?.querySelector('[data-testid="audit-approval"]')).toBeNull();
    await pressKey(byTestId(view.container, "audit-panel"), "Escape");
    expect(closed).toBe(1);
  });

  it("says so when nothing was called, and shows the server's error", async () => {
    view = await render(<AuditPanel conversationId={null} onClose={() => closed++} />, socket);
    expect(byTestId(view.container, "audit-empty").textContent).toContain("No app has called");
    expect(socket.sent("audit:list")).toEqual([]);
    await view.unmount();

    socket.respond("audit:list", () => ({
      ok: false,
      error: wireError("not_found", "No such conversation."),
    }));
    view = await render(<AuditPanel conversationId="conv-9" onClose={() => closed++} />, socket);
    await waitUntil(
      () => view.container.querySelector('[role="alert"]') !== null,
      "the error shows",
    );
    expect(view.container.querySelector('[role="alert"]')?.textContent).toContain(
      "No such conversation.",
    );
  });
});
