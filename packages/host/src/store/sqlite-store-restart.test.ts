import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "./open-store";

describe("SqliteStore on a file, across restarts", () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-store-"));
  });

  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("creates the parent folder and keeps data across a close and reopen", async () => {
    const spec = `sqlite:${join(folder, "nested", "deeper", "host.db")}`;
    const first = await openStore(spec);
    const conversation = await first.createConversation("ada", { title: "Kept" });
    await first.saveCard({
      instanceId: "host-1",
      conversationId: conversation.id,
      chatId: "chat-1",
      kind: "card",
      source: "notes",
      tool: "show-notes",
      arguments: {},
      result: { content: [] },
      title: "Notes",
      checked: false,
    });
    await first.close();
    // WAL is a property of the file, so a plain connection sees it.
    const raw = new Database(spec.slice("sqlite:".length), { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    raw.close();

    const second = await openStore(spec);
    expect(await second.getConversation("ada", conversation.id)).toMatchObject({ title: "Kept" });
    expect(await second.listCards(conversation.id)).toHaveLength(1);
    await second.close();
  });
});
