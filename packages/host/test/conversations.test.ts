// Saved conversations over the socket: list, create, rename, delete, export and import, each
// person seeing only their own.
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { exchange, greeterApp, openCard, startHost, type TestHost, headerUsers } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

describe("conversations over the socket", () => {
  it("lists, renames, exports, imports and deletes a person's own conversations only", async () => {
    host = await startHost({
      auth: headerUsers,
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const alice = await host.connect({ headers: { "x-test-user": "alice" } });
    const bob = await host.connect({ headers: { "x-test-user": "bob" }, tabId: "tab-b" });
    expect((await alice.value("session:hello", {})).conversations).toEqual([]);
    await bob.value("session:hello", {});

    const created = await alice.value("conversation:create", { title: "Plans" });
    expect(created).toMatchObject({
      conversation: { title: "Plans", imported: false },
      messages: [],
      cards: [],
      running: [],
    });
    const conversationId = created.conversation.id;
    await exchange(alice, "chat-1", "Hello");
    const card = await openCard(alice, "chat-1", "greet", { name: "Ada" });
    expect(card.conversationId).toBe(conversationId);

    expect((await alice.value("conversation:list", {})).map((entry) => entry.title)).toEqual([
      "Plans",
    ]);
    expect(await bob.value("conversation:list", {})).toEqual([]);

    const renamed = await alice.value("conversation:rename", {
      conversationId,
      title: "Trip plans",
    });
    expect(renamed).toMatchObject({ id: conversationId, title: "Trip plans" });

    const document = await alice.value("conversation:export", { conversationId });
    expect(document).toMatchObject({
      format: "mcp-chat-host.conversation",
      version: 2,
      conversation: { title: "Trip plans" },
    });
    expect((document["messages"] as unknown[]).length).toBe(4);
    expect(document["cards"]).toEqual([
      expect.objectContaining({ instanceId: card.instanceId, result: card.result }),
    ]);

    const copy = await alice.value("conversation:import", { document });
    expect(copy).toMatchObject({ title: "Trip plans", imported: true });
    expect(copy.id).not.toBe(conversationId);
    const opened = await alice.value("conversation:open", { conversationId: copy.id });
    expect(opened.messages.map((message) => [message.role, message.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
      ["user", "complete"],
      ["assistant", "complete"],
    ]);

    // Bob imports the same document: his own copy, invisible to Alice.
    const bobsCopy = await bob.value("conversation:import", { document });
    expect((await bob.value("conversation:list", {})).map((entry) => entry.id)).toEqual([
      bobsCopy.id,
    ]);
    expect((await alice.value("conversation:list", {})).map((entry) => entry.id).sort()).toEqual(
      [conversationId, copy.id].sort(),
    );
    expect(await alice.request("conversation:open", { conversationId: bobsCopy.id })).toMatchObject(
      { ok: false, error: { code: "not_found" } },
    );

    expect(await alice.value("conversation:delete", { conversationId })).toEqual({ deleted: true });
    expect((await alice.value("conversation:list", {})).map((entry) => entry.id)).toEqual([
      copy.id,
    ]);
    expect(await host.server.store.listMessages(conversationId)).toEqual([]);
    expect(await alice.request("conversation:open", { conversationId })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    // Bob's copy is untouched.
    expect(
      (await bob.value("conversation:open", { conversationId: bobsCopy.id })).messages,
    ).toHaveLength(4);

    // A malformed document is refused and nothing is stored.
    const bad = await alice.request("conversation:import", {
      document: { format: "something-else" },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: "bad_request" } });
    expect(await alice.value("conversation:list", {})).toHaveLength(1);
  });

  it("deleting the shown conversation closes its cards", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    await client.value("conversation:delete", { conversationId: card.conversationId! });
    expect(
      await client.request("card:call-tool", {
        instanceId: card.instanceId,
        name: "set-name",
        arguments: { name: "Bo" },
      }),
    ).toMatchObject({ ok: false, error: { message: "This app is no longer running." } });
    // The next message starts a new conversation.
    const next = await exchange(client, "chat-1", "Hello");
    expect(next.reply.conversationId).not.toBe(card.conversationId);
  });
});
