// Several host nodes on one Postgres and one Redis (both real, on 127.0.0.1): what a person sees
// must not depend on which node holds which tab.
import {
  startPostgres,
  startRedis,
  type RunningPostgres,
  type RunningRedis,
} from "@mcp-chat-host/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../src/testing/http-layer-support";
import type { HostServerOptions } from "../src/host-server-options";
import { mcpChatHost } from "../src/mcp-chat-host";
import { ReplyText, signInAt, startNode, type TestNode } from "./cluster-support";
import { greeterApp, nextChunk } from "./harness";

let postgres: RunningPostgres;
let redis: RunningRedis;
let databaseUrl: string;
let nodeA: TestNode;
let nodeB: TestNode;
let cardNodeA: TestNode;
let cardNodeB: TestNode;
const greetings = { calls: [] as string[] };

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  databaseUrl = await postgres.createDatabase();
  const shared = { databaseUrl, redisUrl: redis.url };
  nodeA = await startNode("node-a", shared, { leaseTtlMs: 900 });
  nodeB = await startNode("node-b", shared, { leaseTtlMs: 900 });
  const withGreeter: HostServerOptions["session"] = (session) => {
    mcpChatHost(session.chat(), greeterApp(greetings));
  };
  cardNodeA = await startNode("node-card-a", shared, { session: withGreeter });
  cardNodeB = await startNode("node-card-b", shared, { session: withGreeter });
}, 120_000);

afterAll(async () => {
  await nodeA?.close();
  await nodeB?.close();
  await cardNodeA?.close();
  await cardNodeB?.close();
  await redis?.stop();
  await postgres?.stop();
});

describe("several nodes", () => {
  it("shows a person's other tab, on another node, what this tab changed", async () => {
    const cookie = await signInAt(nodeA);
    const here = await nodeA.connect(cookie, "tab-here");
    const there = await nodeB.connect(cookie, "tab-there");
    await here.value("session:hello", {});
    await there.value("session:hello", {});
    const created = await here.value("conversation:create", { title: "Across nodes" });
    const id = created.conversation.id;
    await there.next("conversations:changed", ({ conversations }) =>
      conversations.some((item) => item.id === id),
    );
    await there.value("conversation:open", { conversationId: id });
    await here.value("conversation:rename", { conversationId: id, title: "Renamed" });
    await there.next("conversations:changed", ({ conversations }) =>
      conversations.some((item) => item.id === id && item.title === "Renamed"),
    );
    await here.value("message:send", { chatId: "chat-1", text: "Hello there", clientId: "m-1" });
    const seen = await there.next(
      "message:created",
      ({ message }) => message.conversationId === id && message.role === "user",
    );
    expect(seen.message.parts).toEqual([{ type: "text", text: "Hello there" }]);
    const reply = await nodeA.writer.nextReply();
    reply.write("Hi.");
    reply.finish();
    const finished = await there.next(
      "message:updated",
      ({ message }) => message.conversationId === id && message.status === "complete",
    );
    expect(finished.message.parts).toEqual([{ type: "text", text: "Hi." }]);
    await here.value("conversation:delete", { conversationId: id });
    await there.next("conversations:changed", ({ conversations }) =>
      conversations.every((item) => item.id !== id),
    );
  }, 60_000);

  it("shows a reply streamed on node A, live, in a tab on node B: no delta lost or twice", async () => {
    const cookie = await signInAt(nodeA);
    const writer = await nodeA.connect(cookie, "tab-writer");
    const reader = await nodeB.connect(cookie, "tab-reader");
    await writer.value("session:hello", {});
    await reader.value("session:hello", {});
    const created = await writer.value("conversation:create", { title: "Live" });
    const id = created.conversation.id;
    await writer.value("message:send", { chatId: "chat-1", text: "Tell me", clientId: "m-2" });
    const reply = await nodeA.writer.nextReply();
    const pieces = ["One, ", "two, ", "three, ", "four, ", "five."];
    reply.write(pieces[0]!);
    reply.write(pieces[1]!);
    await writer.next(
      "message:chunk",
      ({ chunk }) => chunk.type === "text-delta" && chunk.delta === pieces[1],
    );
    // The reader opens the conversation while the reply is being written on the other node.
    const snapshot = await reader.value("conversation:open", { conversationId: id });
    const streaming = snapshot.messages.find((message) => message.status === "streaming");
    expect(streaming).toBeDefined();
    const text = new ReplyText(streaming);
    expect(text.text).toBe("One, two, ");
    for (const piece of pieces.slice(2)) reply.write(piece);
    reply.finish();
    const done = await reader.next(
      "message:updated",
      ({ message }) => message.id === streaming!.id && message.status === "complete",
    );
    for (const entry of reader.received) {
      if (entry.event !== "message:chunk") continue;
      text.apply(entry.payload as Parameters<ReplyText["apply"]>[0]);
    }
    expect(text.gaps).toBe(0);
    expect(text.text).toBe(pieces.join(""));
    expect(done.message.parts).toEqual([{ type: "text", text: pieces.join("") }]);
  }, 60_000);

  it("opens and closes a card in the other tab, on another node, without calling its tool again", async () => {
    const cookie = await signInAt(cardNodeA);
    const here = await cardNodeA.connect(cookie, "tab-card-here");
    const there = await cardNodeB.connect(cookie, "tab-card-there");
    await here.value("session:hello", {});
    await there.value("session:hello", {});
    const created = await here.value("conversation:create", { title: "Cards" });
    const id = created.conversation.id;
    await there.value("conversation:open", { conversationId: id });
    await here.value("message:send", { chatId: "chat-1", text: "Greet Ada", clientId: "c-1" });
    const step = await cardNodeA.writer.nextReply();
    step.callTool("greet", { name: "Ada" });
    const last = await cardNodeA.writer.nextReply();
    last.write("Done.");
    last.finish();
    const opened = await nextChunk(there, "data-card", ({ card }) => card.conversationId === id);
    await nextChunk(
      there,
      "tool-output-available",
      ({ toolCallId }) => toolCallId === opened.toolCallId,
    );
    expect(greetings.calls).toEqual(["greet:Ada"]);
    // The other tab shows the card from what was stored: its tool is not called again.
    const attached = await there.value("card:attach", { instanceId: opened.card.instanceId });
    expect(attached.toolResult).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
    expect(greetings.calls).toEqual(["greet:Ada"]);
    await here.value("card:teardown", { instanceId: opened.card.instanceId, reason: "closed" });
    const closed = await there.next(
      "card:closed",
      ({ instanceId }) => instanceId === opened.card.instanceId,
    );
    expect(closed.reason).toBe("This app was closed in another tab.");
  }, 60_000);

  it("spends a one-time sign-in token once across the nodes", async () => {
    const url = new URL(await nodeA.server.mintSignInUrl());
    const path = `${url.pathname}${url.search}`;
    const first = await rawRequest(nodeB.port, path, {
      headers: { host: `127.0.0.1:${nodeB.port}` },
    });
    expect(first.status).toBe(200);
    const again = await rawRequest(nodeA.port, path, {
      headers: { host: `127.0.0.1:${nodeA.port}` },
    });
    expect(again.status).toBe(401);
    expect(again.body).toContain("already used");
  }, 30_000);

  it("reports the database and Redis on /readyz and stays cheap on /healthz", async () => {
    const ready = await rawRequest(nodeA.port, "/readyz", {
      headers: { host: `127.0.0.1:${nodeA.port}` },
    });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({
      ok: true,
      node: "node-a",
      database: "ok",
      redis: "ok",
    });
  }, 30_000);

  it("interrupts the replies of a node whose lease ran out, and only those", async () => {
    const cookie = await signInAt(nodeA);
    const tab = await nodeA.connect(cookie, "tab-lease");
    const watcher = await nodeB.connect(cookie, "tab-lease-watch");
    await tab.value("session:hello", {});
    await watcher.value("session:hello", {});
    const created = await tab.value("conversation:create", { title: "Leases" });
    const id = created.conversation.id;
    await watcher.value("conversation:open", { conversationId: id });
    // A live reply on node A, held open.
    await tab.value("message:send", { chatId: "chat-1", text: "Keep going", clientId: "m-3" });
    const live = await nodeA.writer.nextReply();
    live.write("Still here");
    const started = await watcher.next(
      "message:created",
      ({ message }) => message.conversationId === id && message.status === "streaming",
    );
    // A node that died: its lease is short and never renewed, its reply was left streaming.
    const store = nodeA.server.store;
    await store.renewLease("node-gone", 200);
    const orphan = await store.appendMessage({
      conversationId: id,
      chatId: "chat-1",
      role: "assistant",
      parts: [{ type: "text", text: "cut short" }],
      status: "streaming",
      nodeId: "node-gone",
    });
    const interrupted = await watcher.next(
      "message:updated",
      ({ message }) => message.id === orphan.id && message.status === "interrupted",
    );
    expect(interrupted.message.parts).toEqual([{ type: "text", text: "cut short" }]);
    const messages = await store.listMessages(id);
    expect(messages.find((message) => message.id === started.message.id)?.status).toBe("streaming");
    live.finish();
    await watcher.next(
      "message:updated",
      ({ message }) => message.id === started.message.id && message.status === "complete",
    );
  }, 60_000);

  it("resumes cross-node updates after Redis restarts, and tells tabs to take a fresh snapshot", async () => {
    const cookie = await signInAt(nodeA);
    const here = await nodeA.connect(cookie, "tab-redis-here");
    const there = await nodeB.connect(cookie, "tab-redis-there");
    await here.value("session:hello", {});
    await there.value("session:hello", {});
    await redis.restart();
    await there.next("session:stale", () => true, 30_000);
    await here.next("session:stale", () => true, 30_000);
    const created = await here.value("conversation:create", { title: "After Redis" });
    await there.next(
      "conversations:changed",
      ({ conversations }) => conversations.some((item) => item.id === created.conversation.id),
      30_000,
    );
  }, 90_000);

  it("answers a clear error while Postgres is down, and works again once it is back", async () => {
    const cookie = await signInAt(nodeA);
    const tab = await nodeA.connect(cookie, "tab-postgres");
    await tab.value("session:hello", {});
    const created = await tab.value("conversation:create", { title: "Outage" });
    await postgres.stopAbruptly();
    const refused = await tab.request("conversation:rename", {
      conversationId: created.conversation.id,
      title: "During the outage",
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.message).not.toMatch(/[{}]|ECONNREFUSED|at .*\.ts/);
      expect(refused.error.message.length).toBeGreaterThan(10);
    }
    await postgres.restart();
    let renamed: Awaited<ReturnType<typeof tab.request<"conversation:rename">>> | undefined;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      renamed = await tab.request("conversation:rename", {
        conversationId: created.conversation.id,
        title: "After the outage",
      });
      if (renamed.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(renamed?.ok).toBe(true);
    const list = await tab.value("conversation:list", {});
    expect(list.find((item) => item.id === created.conversation.id)?.title).toBe(
      "After the outage",
    );
  }, 90_000);
});
