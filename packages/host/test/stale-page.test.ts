// A page from an earlier load of a card (a page counts only while the generation it attached
// with is the card's): each `card:attach` starts a new generation, the reply names it, and the
// browser sends it back with `card:post-message` and `card:update-context`. The server routes a
// message or takes a report only from the newest load; an older page (the card reopened in
// another tab, its page reloaded) neither posts nor reports.
import { afterEach, describe, expect, it } from "vitest";
import type { ChatHostHandle } from "../src/session/chat";
import { mcpChatHost } from "../src/mcp-chat-host";
import { greeterApp, openCard, receivedOf, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

async function startComposer() {
  const handles: ChatHostHandle[] = [];
  host = await startHost({
    session(session) {
      handles.push(mcpChatHost(session.chat(), greeterApp(), { messages: "compose" }));
    },
  });
  const client = await host.connect();
  await client.value("session:hello", {});
  const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
  return { client, card, handle: handles[0]! };
}

function text(value: string) {
  return [{ type: "text", text: value }];
}

describe("pages of an earlier generation", () => {
  it("each attach names a newer generation", async () => {
    const { client, card } = await startComposer();
    const first = await client.value("card:attach", { instanceId: card.instanceId });
    const second = await client.value("card:attach", { instanceId: card.instanceId });
    expect(typeof first.generation).toBe("number");
    expect(second.generation).toBeGreaterThan(first.generation!);
  });

  it("drops a message from an earlier load of the page, and routes the newest load's", async () => {
    const { client, card } = await startComposer();
    const old = await client.value("card:attach", { instanceId: card.instanceId });
    const current = await client.value("card:attach", { instanceId: card.instanceId });
    client.received.splice(0);

    expect(
      await client.value("card:post-message", {
        instanceId: card.instanceId,
        generation: old.generation!,
        role: "user",
        content: text("from the old page"),
      }),
    ).toEqual({
      action: "drop",
      reason: "The message came from an earlier load of the card's page.",
    });
    expect(receivedOf(client, "composer:fill")).toEqual([]);
    expect(receivedOf(client, "message:created")).toEqual([]);

    expect(
      await client.value("card:post-message", {
        instanceId: card.instanceId,
        generation: current.generation!,
        role: "user",
        content: text("from the new page"),
      }),
    ).toEqual({ action: "compose" });
    expect(receivedOf(client, "composer:fill")).toEqual([
      { chatId: "chat-1", text: "from the new page", instanceId: card.instanceId },
    ]);
  });

  it("refuses model context from an earlier load, and keeps the newest load's", async () => {
    const { client, card, handle } = await startComposer();
    const old = await client.value("card:attach", { instanceId: card.instanceId });
    const current = await client.value("card:attach", { instanceId: card.instanceId });

    await client.value("card:update-context", {
      instanceId: card.instanceId,
      generation: current.generation!,
      content: text("Showing 4 items"),
    });
    const stale = await client.request("card:update-context", {
      instanceId: card.instanceId,
      generation: old.generation!,
      content: text("Showing 8 items"),
    });
    expect(stale).toEqual({
      ok: false,
      error: {
        code: "conflict",
        message: "This page was replaced by a newer load of the app; its report is not used.",
        retryable: false,
        rpcCode: -32600,
      },
    });
    const context = handle.context();
    expect(context).toContain("Showing 4 items");
    expect(context).not.toContain("Showing 8 items");
  });

  it("a browser that sends no generation is taken as the newest load", async () => {
    const { client, card, handle } = await startComposer();
    await client.value("card:attach", { instanceId: card.instanceId });
    await client.value("card:attach", { instanceId: card.instanceId });
    expect(
      await client.value("card:post-message", {
        instanceId: card.instanceId,
        role: "user",
        content: text("no generation"),
      }),
    ).toEqual({ action: "compose" });
    await client.value("card:update-context", {
      instanceId: card.instanceId,
      content: text("Showing 2 items"),
    });
    expect(handle.context()).toContain("Showing 2 items");
  });
});
