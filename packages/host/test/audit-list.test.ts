// The audit of a conversation, for the person (`audit:list`), through a real
// socket. Every page call is there with its verdict; a call the person was asked about says how
// it was answered (their answer and its scope, an earlier answer that was remembered, or nobody).
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import {
  greeterApp,
  openCard,
  startHost,
  type TestClient,
  type TestHost,
  headerUsers,
} from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

function setName(client: TestClient, instanceId: string, name: string) {
  return client.request("card:call-tool", { instanceId, name: "set-name", arguments: { name } });
}

/** Calls set-name and answers the question it raises with `decision`. */
async function callAndAnswer(
  client: TestClient,
  instanceId: string,
  name: string,
  decision: "allow-once" | "allow-card" | "allow-conversation" | "refuse",
): Promise<void> {
  const call = setName(client, instanceId, name);
  const request = await client.next("approval:request");
  await client.value("approval:answer", { approvalId: request.approvalId, decision });
  await call;
}

describe("audit:list", () => {
  it("gives the conversation's page calls, newest first, with how each question was answered", async () => {
    let now = Date.parse("2031-05-01T10:00:00Z");
    host = await startHost({
      now: () => (now += 1_000),
      session(session) {
        mcpChatHost(session.chat(), greeterApp(), {
          onAppCall: (call) =>
            String(call.arguments["name"]).startsWith("ask") ? call.ask("May it?") : true,
        });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "A" });
    const conversationId = card.conversationId ?? "";

    await setName(client, card.instanceId, "plain"); // allowed by the policy, nobody asked
    await callAndAnswer(client, card.instanceId, "ask-once", "allow-once");
    await callAndAnswer(client, card.instanceId, "ask-no", "refuse");
    await callAndAnswer(client, card.instanceId, "ask-card", "allow-card");
    await setName(client, card.instanceId, "ask-again"); // covered by the card answer
    await client.request("card:call-tool", { instanceId: card.instanceId, name: "secret" });

    const { entries } = await client.value("audit:list", { conversationId });
    expect(entries.map((entry) => [entry.tool, entry.verdict])).toEqual([
      ["secret", "refused"],
      ["set-name", "allowed"],
      ["set-name", "allowed"],
      ["set-name", "refused"],
      ["set-name", "allowed"],
      ["set-name", "allowed"],
    ]);
    const [secret, remembered, byCard, refused, once, plain] = entries;
    expect(secret?.reason).toContain("can't call");
    expect(plain?.approval).toBeUndefined();
    expect(once?.approval).toMatchObject({
      answeredBy: "person",
      answer: "allow-once",
      scope: "call",
    });
    expect(refused?.approval).toMatchObject({
      answeredBy: "person",
      answer: "refuse",
      scope: "call",
    });
    expect(byCard?.approval).toMatchObject({
      answeredBy: "person",
      answer: "allow-card",
      scope: "card",
    });
    expect(remembered?.approval).toEqual({
      answeredBy: "remembered",
      answer: "allow-card",
      scope: "card",
      answeredAt: byCard?.approval?.answeredAt,
    });
    for (const entry of entries) {
      expect(entry).toMatchObject({ instanceId: card.instanceId, source: "greeter" });
      expect(entry).not.toHaveProperty("sessionId");
      expect(entry).not.toHaveProperty("userId");
    }
    // Answered after it was asked, and the call is audited after the answer.
    expect(once?.approval?.answeredAt).toBeGreaterThan(plain?.at ?? Infinity);

    const limited = await client.value("audit:list", { conversationId, limit: 2 });
    expect(limited.entries.map((entry) => entry.id)).toEqual([secret?.id, remembered?.id]);
  });

  it("audits a question nobody answered because the card closed", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp(), { onAppCall: (call) => call.ask() });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "A" });
    const call = setName(client, card.instanceId, "x");
    await client.next("approval:request");
    await client.value("card:teardown", { instanceId: card.instanceId, reason: "closed" });
    await call;
    const { entries } = await client.value("audit:list", {
      conversationId: card.conversationId ?? "",
    });
    expect(entries[0]).toMatchObject({ verdict: "refused", approval: { answeredBy: "nobody" } });
  });

  it("refuses another person's conversation and an unknown one", async () => {
    host = await startHost({
      auth: headerUsers,
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const alice = await host.connect({ tabId: "alice", headers: { "x-test-user": "alice" } });
    await alice.value("session:hello", {});
    const card = await openCard(alice, "chat-1", "greet", { name: "A" });
    await setName(alice, card.instanceId, "mine");
    const bob = await host.connect({ tabId: "bob", headers: { "x-test-user": "bob" } });
    await bob.value("session:hello", {});
    for (const conversationId of [card.conversationId ?? "", "no-such-conversation"]) {
      expect(await bob.request("audit:list", { conversationId })).toMatchObject({
        ok: false,
        error: { code: "not_found", message: "That conversation doesn't exist, or isn't yours." },
      });
    }
    const own = await alice.value("audit:list", { conversationId: card.conversationId ?? "" });
    expect(own.entries).toHaveLength(1);
  });
});
