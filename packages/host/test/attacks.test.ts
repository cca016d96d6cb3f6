// The attack cases of docs/security.md, each against a real server: no sign-in, a foreign Origin
// or Host, oversized and malformed payloads, events naming another session's cards or another
// user's conversations, a card reaching beyond its own source, and too many page calls.
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { mcpChatHost } from "../src/mcp-chat-host";
import { rawRequest } from "../src/testing/http-layer-support";
import { McpApp } from "../src/sources/mcp-app";
import {
  connectTestClient,
  greeterApp,
  openCard,
  startHost,
  type TestClient,
  type TestHost,
} from "./harness";

const NOT_RUNNING = {
  ok: false,
  error: { code: "not_found", message: "This app is no longer running.", rpcCode: -32600 },
};
const NOT_YOURS = {
  ok: false,
  error: { code: "not_found", message: "That conversation doesn't exist, or isn't yours." },
};

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

/** Two people, told apart by a header an auth function reads. */
const twoUsers = {
  mode: "function" as const,
  authenticate(request: IncomingMessage) {
    const id = request.headers["x-test-user"];
    return typeof id === "string" ? { id, name: id.toUpperCase() } : null;
  },
};

function otherApp(counter: { calls: string[] }): McpApp {
  return new McpApp({
    name: "other",
    html: "<!doctype html><p>Other page</p>",
    tools: [
      {
        name: "other-tool",
        description: "Another app's tool.",
        inputSchema: { value: z.string().optional() },
        visibility: ["model", "app"],
        handler: () => {
          counter.calls.push("other-tool");
          return { content: [{ type: "text", text: "other" }] };
        },
      },
    ],
  });
}

async function connectionRefusal(
  testHost: TestHost,
  headers: { cookie?: string; origin?: string; host?: string },
): Promise<Error & { data?: unknown }> {
  try {
    const client = await connectTestClient(testHost.origin, {
      cookie: headers.cookie ?? testHost.cookie,
      origin: headers.origin ?? testHost.origin,
      tabId: "attacker",
      ...(headers.host === undefined ? {} : { headers: { host: headers.host } }),
    });
    client.close();
  } catch (error) {
    return error as Error & { data?: unknown };
  }
  throw new Error("The connection was accepted.");
}

describe("the socket's door", () => {
  it("refuses a socket with no sign-in cookie, a foreign Origin or a foreign Host", async () => {
    host = await startHost({ session: (session) => void session.chat() });
    const noCookie = await connectionRefusal(host, { cookie: "" });
    expect(noCookie.data).toMatchObject({ code: "unauthorized" });
    const forged = await connectionRefusal(host, { cookie: "mch_session=forged.value" });
    expect(forged.data).toMatchObject({ code: "unauthorized" });
    await connectionRefusal(host, { origin: "http://evil.example" });
    await connectionRefusal(host, { host: `evil.example:${host.port}` });

    const refusals = host.logs.map((line) => String(line.msg));
    expect(
      refusals.filter((message) => message === "Refused an unauthenticated socket."),
    ).toHaveLength(2);
    expect(
      refusals.filter((message) => message.startsWith("Refused a socket handshake")),
    ).toHaveLength(2);
    // No session was made for any of them.
    expect(host.server.sessions.size).toBe(0);

    // The same checks guard HTTP.
    const foreignHost = await rawRequest(host.port, "/", {
      headers: { host: `evil.example:${host.port}`, cookie: host.cookie },
    });
    expect(foreignHost.status).toBe(421);
    const noCookieHttp = await rawRequest(host.port, "/", {
      headers: { host: `127.0.0.1:${host.port}` },
    });
    expect(noCookieHttp.status).toBe(401);
  });
});

describe("payloads", () => {
  it("answers an oversized payload with too_large and stores nothing", async () => {
    const handles: { context(): string | null }[] = [];
    host = await startHost({
      session(session) {
        handles.push(mcpChatHost(session.chat(), greeterApp()));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const huge = await client.request("message:send", {
      chatId: "chat-1",
      text: "x".repeat(1_200_000),
      clientId: "huge",
    });
    expect(huge).toMatchObject({ ok: false, error: { code: "too_large" } });
    expect(await host.server.store.listConversations("operator")).toEqual([]);

    // A card report over the card payload cap is refused and not kept.
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    const report = await client.request("card:update-context", {
      instanceId: card.instanceId,
      content: [{ type: "text", text: "y".repeat(300_000) }],
    });
    expect(report).toMatchObject({ ok: false, error: { code: "bad_request" } });
    expect(handles[0]!.context()).toBeNull();
    // The connection is still usable.
    expect(await client.value("conversation:list", {})).toHaveLength(1);
  });

  it("refuses payloads with an extra key or a command, before doing anything", async () => {
    const counter = { calls: [] as string[] };
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp(counter));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const send = client.request as (
      event: string,
      payload: unknown,
    ) => ReturnType<TestClient["request"]>;
    const attempts = [
      send("message:send", { chatId: "chat-1", text: "hi", clientId: "a", command: "rm -rf /" }),
      send("session:hello", { url: "http://evil.example/mcp" }),
      send("conversation:create", { title: "x", config: { mcpServers: {} } }),
      send("card:call-tool", {
        instanceId: "host-x",
        name: "greet",
        arguments: {},
        command: "node evil.js",
      }),
      send("message:send", { chatId: "chat-1", text: "   ", clientId: "b" }),
      send("message:send", { chatId: "../chat", text: "hi", clientId: "c" }),
      send("message:send", "just a string"),
    ];
    for (const ack of await Promise.all(attempts)) {
      expect(ack).toMatchObject({ ok: false, error: { code: "bad_request" } });
    }
    expect(await host.server.store.listConversations("operator")).toEqual([]);
    expect(counter.calls).toEqual([]);
  });
});

describe("isolation", () => {
  it("keeps each session to its own cards and each user to their own conversations", async () => {
    const counter = { calls: [] as string[] };
    host = await startHost({
      auth: twoUsers,
      session(session) {
        mcpChatHost(session.chat(), greeterApp(counter), {
          onAppCall: (call) => (call.arguments["name"] === "ask" ? call.ask() : true),
        });
      },
    });
    const alice = await host.connect({ headers: { "x-test-user": "alice" } });
    const bob = await host.connect({ headers: { "x-test-user": "bob" }, tabId: "tab-b" });
    expect((await alice.value("session:hello", {})).user).toEqual({ id: "alice", name: "ALICE" });
    await bob.value("session:hello", {});
    const card = await openCard(alice, "chat-1", "greet", { name: "Ada" });
    const conversationId = card.conversationId!;
    const id = card.instanceId;

    // Bob names Alice's card in every card event: none reaches it.
    expect(
      await bob.request("card:call-tool", {
        instanceId: id,
        name: "set-name",
        arguments: { name: "Bob" },
      }),
    ).toMatchObject(NOT_RUNNING);
    expect(await bob.request("card:attach", { instanceId: id })).toMatchObject({
      ok: false,
      error: { message: "This app isn't available any more." },
    });
    expect(
      await bob.request("card:update-context", {
        instanceId: id,
        content: [{ type: "text", text: "hi" }],
      }),
    ).toMatchObject(NOT_RUNNING);
    expect(
      await bob.request("card:post-message", {
        instanceId: id,
        role: "user",
        content: [{ type: "text", text: "hi" }],
      }),
    ).toMatchObject(NOT_RUNNING);
    expect(
      await bob.request("card:read-resource", { instanceId: id, uri: "ui://greeter" }),
    ).toMatchObject(NOT_RUNNING);
    await bob.value("card:teardown", { instanceId: id, reason: "closed" });
    expect(counter.calls).toEqual(["greet:Ada"]);

    // A second tab of Alice's is another session: it can't reach the first tab's live card either.
    const aliceTab = await host.connect({ headers: { "x-test-user": "alice" }, tabId: "tab-a2" });
    await aliceTab.value("session:hello", {});
    expect(
      await aliceTab.request("card:call-tool", {
        instanceId: id,
        name: "set-name",
        arguments: { name: "Tab" },
      }),
    ).toMatchObject(NOT_RUNNING);

    // Bob can't answer Alice's approval.
    const waiting = alice.request("card:call-tool", {
      instanceId: id,
      name: "set-name",
      arguments: { name: "ask" },
    });
    const question = await alice.next("approval:request");
    expect(
      await bob.request("approval:answer", {
        approvalId: question.approvalId,
        decision: "allow-once",
      }),
    ).toMatchObject({ ok: false, error: { code: "not_found" } });
    await alice.value("approval:answer", { approvalId: question.approvalId, decision: "refuse" });
    expect(await waiting).toMatchObject({ ok: false, error: { code: "refused" } });
    expect(counter.calls).toEqual(["greet:Ada"]);

    // Alice's card still works for Alice (Bob's teardown closed nothing of hers).
    expect(
      await alice.request("card:call-tool", {
        instanceId: id,
        name: "set-name",
        arguments: { name: "Al" },
      }),
    ).toMatchObject({ ok: true });

    // Bob can't see, open, rename, export or delete Alice's conversation.
    expect(await bob.value("conversation:list", {})).toEqual([]);
    expect((await bob.value("session:hello", { conversationId })).current).toBeNull();
    expect(await bob.request("conversation:open", { conversationId })).toMatchObject(NOT_YOURS);
    expect(
      await bob.request("conversation:rename", { conversationId, title: "Mine" }),
    ).toMatchObject(NOT_YOURS);
    expect(await bob.request("conversation:export", { conversationId })).toMatchObject(NOT_YOURS);
    expect(await bob.request("conversation:delete", { conversationId })).toMatchObject(NOT_YOURS);
    const alicesList = await alice.value("conversation:list", {});
    expect(alicesList.map((conversation) => conversation.id)).toEqual([conversationId]);
    expect(alicesList[0]!.title).not.toBe("Mine");
    expect(await host.server.store.getCard(conversationId, id)).toMatchObject({ instanceId: id });
  });
});

describe("what a card's page may reach", () => {
  it("refuses another source's tool, a model-only tool, and unknown tools", async () => {
    const counter = { calls: [] as string[] };
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), [greeterApp(counter), otherApp(counter)]);
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    const call = (name: string) =>
      client.request("card:call-tool", { instanceId: card.instanceId, name, arguments: {} });
    for (const name of ["other-tool", "secret", "no-such-tool"]) {
      expect(await call(name)).toEqual({
        ok: false,
        error: {
          code: "refused",
          message: `The app can't call the tool "${name}".`,
          rpcCode: -32602,
          retryable: false,
        },
      });
    }
    // Its resource requests reach its own source only.
    const foreignPage = await client.request("card:read-resource", {
      instanceId: card.instanceId,
      uri: "ui://other",
    });
    expect(foreignPage.ok).toBe(false);
    expect(JSON.stringify(foreignPage)).not.toContain("Other page");
    const ownPage = await client.value("card:read-resource", {
      instanceId: card.instanceId,
      uri: "ui://greeter",
    });
    expect(JSON.stringify(ownPage)).toContain("Greeter");
    expect(counter.calls).toEqual(["greet:Ada"]);
    const audit = await host.server.store.listAudit({ conversationId: card.conversationId! });
    expect(audit.map((row) => [row.tool, row.verdict])).toEqual([
      ["no-such-tool", "refused"],
      ["secret", "refused"],
      ["other-tool", "refused"],
    ]);
  });

  it("limits how often one card's page calls its tools", async () => {
    const counter = { calls: [] as string[] };
    host = await startHost({
      pageCallRate: { perSecond: 0.001, burst: 3 },
      session(session) {
        mcpChatHost(session.chat(), greeterApp(counter));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const first = await openCard(client, "chat-1", "greet", { name: "A" });
    const second = await openCard(client, "chat-1", "greet", { name: "B" });
    const call = (instanceId: string, name: string) =>
      client.request("card:call-tool", { instanceId, name: "set-name", arguments: { name } });
    const answers = [];
    for (let index = 1; index <= 5; index += 1)
      answers.push(await call(first.instanceId, `n${index}`));
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, true, false, false]);
    expect(answers[3]).toEqual({
      ok: false,
      error: {
        code: "rate_limited",
        message:
          "This app is calling its tools too often; it was slowed down. Try again in a moment.",
        retryable: true,
        rpcCode: -32603,
      },
    });
    // Another card has its own budget.
    expect((await call(second.instanceId, "other")).ok).toBe(true);
    expect(counter.calls.filter((entry) => entry.startsWith("set-name"))).toEqual([
      "set-name:n1",
      "set-name:n2",
      "set-name:n3",
      "set-name:other",
    ]);
    // The slowed-down calls are audited as refused.
    const audit = await host.server.store.listAudit({ conversationId: first.conversationId! });
    expect(
      audit
        .filter((row) => row.instanceId === first.instanceId)
        .map((row) => [row.verdict, row.reason ?? null])
        .reverse(),
    ).toEqual([
      ["allowed", null],
      ["allowed", null],
      ["allowed", null],
      [
        "refused",
        "This app is calling its tools too often; it was slowed down. Try again in a moment.",
      ],
      [
        "refused",
        "This app is calling its tools too often; it was slowed down. Try again in a moment.",
      ],
    ]);
  });
});
