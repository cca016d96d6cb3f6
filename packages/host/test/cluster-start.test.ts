// A node's start and stop in a deployment: it refuses to start, saying which, when the database
// or Redis is unreachable; SIGTERM's drain lets a running reply finish for a while, then marks it
// interrupted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@mcp-chat-host/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createHostServer } from "../src/create-host-server";
import { memoryLogger } from "../src/testing/http-layer-support";
import { openStore } from "../src/store/open-store";
import { handWrittenModel, sharedSecret } from "./cluster-support";
import { connectSocketTestClient } from "../src/testing";
import { bindingOf, signInThrough } from "../src/testing/http-layer-support";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("a node's start", () => {
  it("refuses to start when Redis is unreachable, and says so", async () => {
    const port = await freePort();
    const server = createHostServer({
      store: ":memory:",
      redisUrl: `redis://127.0.0.1:${port}`,
      logger: memoryLogger().logger,
      env: {},
    });
    await expect(server.listen({ port: 0, host: "127.0.0.1" })).rejects.toMatchObject({
      name: "ClusterStartError",
      dependency: "redis",
      message:
        "Redis cannot be reached; this node does not start. Check the host and port in REDIS_URL and that Redis is running.",
    });
  });

  it("refuses to start when the database is unreachable, and says so without its password", async () => {
    const port = await freePort();
    const server = createHostServer({
      store: `postgres://chat:very-secret@127.0.0.1:${port}/chat`,
      logger: memoryLogger().logger,
      env: {},
    });
    const refusal = server.listen({ port: 0, host: "127.0.0.1" });
    await expect(refusal).rejects.toMatchObject({
      name: "ClusterStartError",
      dependency: "database",
      message:
        "The database server cannot be reached; this node does not start. Check the host and port in DATABASE_URL (or --database) and that PostgreSQL is running.",
    });
    const message = await refusal.catch((error: Error) => error.message);
    expect(message).not.toContain("very-secret");
    expect(message).not.toContain(String(port));
  });
});

describe("a node's drain", () => {
  it("lets a running reply run until the drain time is up, then marks it interrupted", async () => {
    const folder = mkdtempSync(join(tmpdir(), "mch-drain-"));
    folders.push(folder);
    const file = join(folder, "host.db");
    const writer = handWrittenModel();
    const server = createHostServer({
      store: `sqlite:${file}`,
      model: writer.model,
      logger: memoryLogger().logger,
      sessionSecret: sharedSecret,
      env: {},
    });
    const { port, url } = await server.listen({ port: 0, host: "127.0.0.1" });
    const { cookie } = await signInThrough(port, server.signInUrl());
    const tab = await connectSocketTestClient(url, {
      tabId: "tab-drain",
      cookie,
      origin: url,
      binding: bindingOf(cookie),
    });
    await tab.value("session:hello", {});
    const sent = await tab.value("message:send", {
      chatId: "chat-1",
      text: "Go on",
      clientId: "d-1",
    });
    const reply = await writer.nextReply();
    reply.write("Half a sentence");
    const started = await tab.next(
      "message:created",
      ({ message }) => message.role === "assistant",
    );
    await tab.next(
      "message:chunk",
      (event) => event.messageId === started.message.id && event.chunk.type === "text-delta",
    );
    await server.drain(0.2);
    tab.close();
    const store = await openStore(`sqlite:${file}`);
    try {
      const conversationId = started.message.conversationId;
      const messages = await store.listMessages(conversationId);
      expect(messages.find((message) => message.id === sent.messageId)?.status).toBe("complete");
      const cut = messages.find((message) => message.id === started.message.id);
      expect(cut?.status).toBe("interrupted");
    } finally {
      await store.close();
    }
  }, 30_000);
});
