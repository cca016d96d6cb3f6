// Restoring saved conversations: a card saved in one session is
// reopened in another; its page gets the saved arguments and result and no tool is called (the
// app counts its calls). The `checked` mark refuses a restored card's calls when the new session
// has no check for them.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { OnAppCall } from "../src/gate/app-call-gate";
import { mcpChatHost } from "../src/mcp-chat-host";
import { McpApp } from "../src/sources/mcp-app";
import {
  deferred,
  greeterApp,
  openCard,
  startHost,
  type TestClient,
  type TestHost,
} from "./harness";

const UNCHECKED =
  "This app's calls were checked when it was opened, and this session has no check for them. Pass `onAppCall` to the chat host or tool that shows it.";
const GONE = "This app isn't available any more.";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

type Variant = "checked" | "unchecked" | "other-source" | "other-chat-checks";

/**
 * A host whose session function depends on `variant` at the time each session starts, so one
 * test can save a conversation in one kind of session and reopen it in another.
 */
async function startRestoreHost() {
  const counter = { calls: [] as string[] };
  const app = greeterApp(counter);
  const other = new McpApp({
    name: "other",
    html: "<!doctype html><p>Other</p>",
    tools: [
      {
        name: "other-tool",
        description: "Another app's tool.",
        inputSchema: { value: z.string().optional() },
        handler: () => {
          counter.calls.push("other-tool");
          return { content: [{ type: "text", text: "other" }] };
        },
      },
    ],
  });
  const checks: string[] = [];
  const check: OnAppCall = (call) => {
    checks.push(`${call.name} ${String(call.chat)}`);
    return true;
  };
  const state = { variant: "checked" as Variant, ended: [] as Promise<void>[] };
  host = await startHost({
    session(session) {
      const ended = deferred();
      session.onEnd(() => ended.resolve());
      state.ended.push(ended.promise);
      const chat = session.chat();
      if (state.variant === "checked") mcpChatHost(chat, app, { onAppCall: check });
      if (state.variant === "unchecked") mcpChatHost(chat, app);
      if (state.variant === "other-source") mcpChatHost(chat, other);
      if (state.variant === "other-chat-checks") {
        mcpChatHost(chat, app);
        mcpChatHost(session.chat({ id: "side" }), app, { onAppCall: check });
      }
    },
  });
  return { host, counter, checks, state };
}

/** Saves a conversation with one greeter card, in a session of the given variant. */
async function saveCard(testHost: TestHost, client: TestClient) {
  await client.value("session:hello", {});
  const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
  expect(card.result).toEqual({ content: [{ type: "text", text: "Hello, Ada!" }] });
  const saved = await testHost.server.store.getCard(card.conversationId!, card.instanceId);
  expect(saved).not.toBeNull();
  return card;
}

function setName(client: TestClient, instanceId: string, name: string) {
  return client.request("card:call-tool", { instanceId, name: "set-name", arguments: { name } });
}

describe("restoring saved cards", () => {
  it("replays arguments and result on attach in a new session, calling no tool", async () => {
    const { host, counter, checks } = await startRestoreHost();
    const first = await host.connect({ tabId: "tab-1" });
    const card = await saveCard(host, first);
    expect(card.checked).toBe(true);
    expect(counter.calls).toEqual(["greet:Ada"]);
    first.close();

    const second = await host.connect({ tabId: "tab-2" });
    const hello = await second.value("session:hello", { conversationId: card.conversationId! });
    expect(hello.current?.cards).toEqual([
      expect.objectContaining({
        instanceId: card.instanceId,
        source: "greeter",
        tool: "greet",
        arguments: { name: "Ada" },
        result: card.result,
        checked: true,
        chatId: "chat-1",
      }),
    ]);
    const attach = await second.value("card:attach", { instanceId: card.instanceId });
    expect(attach).toMatchObject({
      instanceId: card.instanceId,
      restored: true,
      toolInput: { name: "Ada" },
      toolResult: card.result,
      cancelled: null,
      appTools: ["greet", "set-name"],
    });
    expect(attach.page.html).toContain("Greeter");
    // Zero calls across the restore.
    expect(counter.calls).toEqual(["greet:Ada"]);

    // The new session's chat host checks the restored card's calls, once.
    expect(await setName(second, card.instanceId, "Cy")).toMatchObject({ ok: true });
    expect(checks).toEqual(["set-name chat-1"]);
    expect(counter.calls).toEqual(["greet:Ada", "set-name:Cy"]);
  });

  it("refuses every call of a checked card reopened in a session with no check", async () => {
    const { host, counter, state } = await startRestoreHost();
    const first = await host.connect({ tabId: "tab-1" });
    const card = await saveCard(host, first);

    state.variant = "unchecked";
    const second = await host.connect({ tabId: "tab-2" });
    await second.value("session:hello", { conversationId: card.conversationId! });
    const attach = await second.value("card:attach", { instanceId: card.instanceId });
    expect(attach.restored).toBe(true);
    expect(await setName(second, card.instanceId, "Cy")).toEqual({
      ok: false,
      error: { code: "refused", message: UNCHECKED, rpcCode: -32602, retryable: false },
    });
    expect(await setName(second, card.instanceId, "Di")).toMatchObject({
      ok: false,
      error: { message: UNCHECKED },
    });
    expect(counter.calls).toEqual(["greet:Ada"]);
    const audit = await host.server.store.listAudit({ conversationId: card.conversationId! });
    expect(audit.map((row) => [row.verdict, row.reason])).toEqual([
      ["refused", UNCHECKED],
      ["refused", UNCHECKED],
    ]);
  });

  it("lets an unchecked card's calls through in a session with no check", async () => {
    const { host, counter, state } = await startRestoreHost();
    state.variant = "unchecked";
    const first = await host.connect({ tabId: "tab-1" });
    const card = await saveCard(host, first);
    expect(card.checked).toBe(false);

    const second = await host.connect({ tabId: "tab-2" });
    await second.value("session:hello", { conversationId: card.conversationId! });
    await second.value("card:attach", { instanceId: card.instanceId });
    expect(await setName(second, card.instanceId, "Cy")).toMatchObject({ ok: true });
    expect(counter.calls).toEqual(["greet:Ada", "set-name:Cy"]);
  });

  it("checks a restored card with every hook the session has for its source", async () => {
    const { host, counter, checks, state } = await startRestoreHost();
    const first = await host.connect({ tabId: "tab-1" });
    const card = await saveCard(host, first);

    // chat-1 has no check now, but another chat registered one for the greeter.
    state.variant = "other-chat-checks";
    const second = await host.connect({ tabId: "tab-2" });
    await second.value("session:hello", { conversationId: card.conversationId! });
    await second.value("card:attach", { instanceId: card.instanceId });
    expect(await setName(second, card.instanceId, "Cy")).toMatchObject({ ok: true });
    expect(checks).toEqual(["set-name chat-1"]);
    expect(counter.calls).toEqual(["greet:Ada", "set-name:Cy"]);
  });

  it("answers a card whose source this session lacks: the app isn't available any more", async () => {
    const { host, counter, state } = await startRestoreHost();
    const first = await host.connect({ tabId: "tab-1" });
    const card = await saveCard(host, first);

    state.variant = "other-source";
    const second = await host.connect({ tabId: "tab-2" });
    const hello = await second.value("session:hello", { conversationId: card.conversationId! });
    expect(hello.current?.cards.map((saved) => saved.instanceId)).toEqual([card.instanceId]);
    expect(await second.request("card:attach", { instanceId: card.instanceId })).toEqual({
      ok: false,
      error: { code: "unavailable", message: GONE, retryable: false },
    });
    expect(await setName(second, card.instanceId, "Cy")).toMatchObject({
      ok: false,
      error: { message: "This app is no longer running.", rpcCode: -32600 },
    });
    expect(counter.calls).toEqual(["greet:Ada"]);
  });

  it("restores after the session ended and the same tab reconnects, through conversation:open", async () => {
    const { host, counter, state } = await startRestoreHost();
    const first = await host.connect({ tabId: "tab-1" });
    const card = await saveCard(host, first);
    first.close();
    // The grace period is short in tests; wait for the session's own end.
    await state.ended[0];

    state.variant = "unchecked";
    const again = await host.connect({ tabId: "tab-1" });
    const hello = await again.value("session:hello", {});
    expect(hello.current).toBeNull();
    expect(hello.conversations.map((conversation) => conversation.id)).toEqual([
      card.conversationId,
    ]);
    const opened = await again.value("conversation:open", { conversationId: card.conversationId! });
    expect(opened.cards.map((saved) => saved.instanceId)).toEqual([card.instanceId]);
    const attach = await again.value("card:attach", { instanceId: card.instanceId });
    expect(attach).toMatchObject({ restored: true, toolResult: card.result });
    expect(await setName(again, card.instanceId, "Cy")).toMatchObject({
      ok: false,
      error: { message: UNCHECKED },
    });
    expect(counter.calls).toEqual(["greet:Ada"]);
  });

  it("restores an imported conversation the same way, marks included", async () => {
    const { host, counter, state } = await startRestoreHost();
    const first = await host.connect({ tabId: "tab-1" });
    const card = await saveCard(host, first);
    const document = await first.value("conversation:export", {
      conversationId: card.conversationId!,
    });
    first.close();

    state.variant = "unchecked";
    const second = await host.connect({ tabId: "tab-2" });
    await second.value("session:hello", {});
    const imported = await second.value("conversation:import", { document });
    expect(imported.imported).toBe(true);
    expect(imported.id).not.toBe(card.conversationId);
    const opened = await second.value("conversation:open", { conversationId: imported.id });
    expect(opened.cards).toEqual([
      expect.objectContaining({
        instanceId: card.instanceId,
        conversationId: imported.id,
        checked: true,
        result: card.result,
      }),
    ]);
    const attach = await second.value("card:attach", { instanceId: card.instanceId });
    expect(attach).toMatchObject({
      restored: true,
      toolInput: { name: "Ada" },
      toolResult: card.result,
    });
    expect(await setName(second, card.instanceId, "Cy")).toMatchObject({
      ok: false,
      error: { message: UNCHECKED },
    });
    expect(counter.calls).toEqual(["greet:Ada"]);
  });
});
