// The `onAppCall` gate through a real socket: every verdict kind with the
// exact text the page receives, the chain order, `call.ask()` answered from the test client, and
// the audit of every page call. A refused call never reaches the app: the app counts its calls.
import { afterEach, describe, expect, it } from "vitest";
import type { AppCall, OnAppCall } from "../src/gate/app-call-gate";
import { mcpChatHost } from "../src/mcp-chat-host";
import {
  deferred,
  exchange,
  greeterApp,
  openCard,
  startHost,
  type TestClient,
  type TestHost,
} from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

function setName(client: TestClient, instanceId: string, name: string) {
  return client.request("card:call-tool", { instanceId, name: "set-name", arguments: { name } });
}

function refusal(message: string) {
  return { ok: false, error: { code: "refused", message, rpcCode: -32602, retryable: false } };
}

const allowed = (name: string) => ({
  ok: true,
  value: { content: [{ type: "text", text: `Name set to ${name}.` }] },
});

describe("onAppCall verdicts", () => {
  it("applies every kind of verdict with the exact text the page receives", async () => {
    const counter = { calls: [] as string[] };
    const verdicts: Record<string, () => unknown> = {
      yes: () => true,
      no: () => false,
      text: () => "Not this name.",
      empty: () => "",
      "promise-yes": () => Promise.resolve(true),
      "promise-text": () => Promise.resolve("Later, no."),
      "promise-false": () => Promise.resolve(false),
      rejected: () => Promise.reject(new Error("lookup failed")),
      throws: () => {
        throw new Error("hook broke");
      },
      number: () => 42,
      nothing: () => undefined,
    };
    const seen: AppCall[] = [];
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp(counter), {
          onAppCall: (call) => {
            seen.push(call);
            return verdicts[String(call.arguments["name"])]!();
          },
        });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    expect(card.checked).toBe(true);
    expect(seen).toEqual([]); // the opening call is never checked
    const id = card.instanceId;
    const defaultText = 'The host refused the call to "set-name".';

    expect(await setName(client, id, "yes")).toMatchObject(allowed("yes"));
    expect(await setName(client, id, "no")).toEqual(refusal(defaultText));
    expect(await setName(client, id, "text")).toEqual(refusal("Not this name."));
    expect(await setName(client, id, "empty")).toEqual(refusal(defaultText));
    expect(await setName(client, id, "promise-yes")).toMatchObject(allowed("promise-yes"));
    expect(await setName(client, id, "promise-text")).toEqual(refusal("Later, no."));
    expect(await setName(client, id, "promise-false")).toEqual(refusal(defaultText));
    expect(await setName(client, id, "rejected")).toEqual(refusal(defaultText));
    expect(await setName(client, id, "throws")).toEqual(refusal(defaultText));
    expect(await setName(client, id, "number")).toEqual(refusal(defaultText));
    expect(await setName(client, id, "nothing")).toEqual(refusal(defaultText));

    // Only the allowed calls reached the app.
    expect(counter.calls).toEqual(["greet:Ada", "set-name:yes", "set-name:promise-yes"]);

    // The hook broke its contract in four cases: each is a logged warning.
    const warnings = host.logs
      .filter((line) => line.level === 40 && String(line.msg).startsWith("The app's call"))
      .map((line) => line.msg);
    expect(warnings).toEqual([
      'The app\'s call to "set-name" was refused. onAppCall returned a promise that was rejected: lookup failed',
      'The app\'s call to "set-name" was refused. onAppCall failed: hook broke',
      'The app\'s call to "set-name" was refused. onAppCall must return true, false, or a string, not a number.',
      'The app\'s call to "set-name" was refused. onAppCall must return true, false, or a string, not undefined.',
    ]);

    // What the hook was told.
    expect(seen[0]).toMatchObject({
      name: "set-name",
      arguments: { name: "yes" },
      instanceId: id,
      kind: "card",
      source: "greeter",
      chat: "chat-1",
      title: "Greet",
      session: { user: { id: "operator" } },
    });
    expect(seen[0]!.tool).toMatchObject({ name: "set-name" });

    // Resource reads, pings and the model's own calls pass no hook.
    const hooksSoFar = seen.length;
    await client.value("card:list-resources", { instanceId: id });
    await exchange(client, "chat-1", '/call greet {"name":"Model"}');
    expect(seen).toHaveLength(hooksSoFar);

    // Every page call was audited with its verdict and reason, newest first.
    const audit = await host.server.store.listAudit({ conversationId: card.conversationId! });
    expect(audit.map((row) => [row.tool, row.verdict, row.reason ?? null]).reverse()).toEqual([
      ["set-name", "allowed", null],
      ["set-name", "refused", defaultText],
      ["set-name", "refused", "Not this name."],
      ["set-name", "refused", defaultText],
      ["set-name", "allowed", null],
      ["set-name", "refused", "Later, no."],
      ["set-name", "refused", defaultText],
      ["set-name", "refused", defaultText],
      ["set-name", "refused", defaultText],
      ["set-name", "refused", defaultText],
      ["set-name", "refused", defaultText],
    ]);
    for (const row of audit) {
      expect(row).toMatchObject({ userId: "operator", instanceId: id, source: "greeter" });
      expect(row.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("runs the card's own hook, then its chat's; the first refusal wins", async () => {
    const counter = { calls: [] as string[] };
    const order: string[] = [];
    const own: OnAppCall = (call) => {
      order.push(`own ${String(call.arguments["name"])} ${call.chat} ${call.kind}`);
      return call.arguments["name"] === "own-no" ? "The card says no." : true;
    };
    const chatHook: OnAppCall = (call) => {
      order.push(`chat ${String(call.arguments["name"])}`);
      return call.arguments["name"] === "chat-no" ? "The chat says no." : true;
    };
    const paneHook: OnAppCall = (call) => {
      order.push(`pane ${String(call.arguments["name"])} ${String(call.chat)} ${call.kind}`);
      return true;
    };
    host = await startHost({
      async session(session) {
        const app = greeterApp(counter);
        mcpChatHost(session.chat(), app, { onAppCall: chatHook });
        await session.showCard(app, {
          tool: "greet",
          arguments: { name: "Hand" },
          onAppCall: own,
        });
        await session.pane(app, { tool: "greet", onAppCall: paneHook });
      },
    });
    const client = await host.connect();
    const hello = await client.value("session:hello", {});
    const card = hello.current!.cards[0]!;
    expect(card).toMatchObject({ kind: "card", checked: true, arguments: { name: "Hand" } });
    const pane = hello.panes[0]!;

    expect(await setName(client, card.instanceId, "both-yes")).toMatchObject(allowed("both-yes"));
    expect(await setName(client, card.instanceId, "own-no")).toEqual(refusal("The card says no."));
    expect(await setName(client, card.instanceId, "chat-no")).toEqual(refusal("The chat says no."));
    // A pane passes its own hook only, never a chat's.
    expect(await setName(client, pane.instanceId, "in-pane")).toMatchObject(allowed("in-pane"));
    expect(order).toEqual([
      "own both-yes chat-1 card",
      "chat both-yes",
      "own own-no chat-1 card",
      "own chat-no chat-1 card",
      "chat chat-no",
      "pane in-pane null pane",
    ]);
    expect(counter.calls).toEqual([
      "greet:Hand",
      "greet:",
      "set-name:both-yes",
      "set-name:in-pane",
    ]);
  });
});

describe("a slow verdict", () => {
  it("does not forward a call whose card closed while its hook was deciding", async () => {
    const counter = { calls: [] as string[] };
    const hookStarted = deferred();
    const verdict = deferred<boolean>();
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp(counter), {
          onAppCall: () => {
            hookStarted.resolve();
            return verdict.promise;
          },
        });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "A" });
    const call = setName(client, card.instanceId, "late");
    await hookStarted.promise;
    await client.value("card:teardown", { instanceId: card.instanceId, reason: "closed" });
    verdict.resolve(true);
    expect(await call).toMatchObject({
      ok: false,
      error: { message: "This app is no longer running.", rpcCode: -32600 },
    });
    expect(counter.calls).toEqual(["greet:A"]);
  });
});

describe("call.ask()", () => {
  async function startAskingHost(counter: { calls: string[] }) {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp(counter), {
          onAppCall: (call) =>
            String(call.arguments["name"]).startsWith("ask") ? call.ask("May it?") : true,
        });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    return client;
  }

  it("asks the person and applies each answer; remembered answers skip the dialog", async () => {
    const counter = { calls: [] as string[] };
    const client = await startAskingHost(counter);
    const first = await openCard(client, "chat-1", "greet", { name: "A" });
    const second = await openCard(client, "chat-1", "greet", { name: "B" });

    // allow-once: allowed, and the next call asks again.
    let call = setName(client, first.instanceId, "ask-1");
    let request = await client.next("approval:request");
    expect(request).toMatchObject({
      instanceId: first.instanceId,
      chatId: "chat-1",
      title: "Greet",
      source: "greeter",
      tool: "set-name",
      arguments: { name: "ask-1" },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      question: "May it?",
    });
    await client.value("approval:answer", {
      approvalId: request.approvalId,
      decision: "allow-once",
    });
    expect(await call).toMatchObject(allowed("ask-1"));
    expect(await client.next("approval:settled")).toEqual({ approvalId: request.approvalId });

    // refuse with a reason, then without one.
    call = setName(client, first.instanceId, "ask-2");
    request = await client.next("approval:request");
    await client.value("approval:answer", {
      approvalId: request.approvalId,
      decision: "refuse",
      reason: "Not today.",
    });
    expect(await call).toEqual(refusal("Not today."));
    call = setName(client, first.instanceId, "ask-3");
    request = await client.next("approval:request");
    await client.value("approval:answer", { approvalId: request.approvalId, decision: "refuse" });
    expect(await call).toEqual(refusal('The host refused the call to "set-name".'));

    // allow-card: remembered for that card only.
    call = setName(client, first.instanceId, "ask-4");
    request = await client.next("approval:request");
    await client.value("approval:answer", {
      approvalId: request.approvalId,
      decision: "allow-card",
    });
    expect(await call).toMatchObject(allowed("ask-4"));
    client.received.splice(0);
    expect(await setName(client, first.instanceId, "ask-5")).toMatchObject(allowed("ask-5"));
    expect(client.received.filter((entry) => entry.event === "approval:request")).toEqual([]);
    call = setName(client, second.instanceId, "ask-6");
    request = await client.next("approval:request");
    expect(request.instanceId).toBe(second.instanceId);

    // allow-conversation: remembered for every card of the conversation, and stored with it.
    await client.value("approval:answer", {
      approvalId: request.approvalId,
      decision: "allow-conversation",
    });
    expect(await call).toMatchObject(allowed("ask-6"));
    const third = await openCard(client, "chat-1", "greet", { name: "C" });
    client.received.splice(0);
    expect(await setName(client, third.instanceId, "ask-7")).toMatchObject(allowed("ask-7"));
    expect(client.received.filter((entry) => entry.event === "approval:request")).toEqual([]);
    const remembered = await host!.server.store.listApprovals(first.conversationId!);
    expect(remembered.map((record) => [record.scope, record.instanceId, record.tool])).toEqual([
      ["card", first.instanceId, "set-name"],
      ["conversation", null, "set-name"],
    ]);

    expect(counter.calls.filter((entry) => entry.startsWith("set-name"))).toEqual([
      "set-name:ask-1",
      "set-name:ask-4",
      "set-name:ask-5",
      "set-name:ask-6",
      "set-name:ask-7",
    ]);
    const audit = await host!.server.store.listAudit({ conversationId: first.conversationId! });
    expect(audit.map((row) => [row.verdict, row.reason ?? null]).reverse()).toEqual([
      ["allowed", null],
      ["refused", "Not today."],
      ["refused", 'The host refused the call to "set-name".'],
      ["allowed", null],
      ["allowed", null],
      ["allowed", null],
      ["allowed", null],
    ]);

    // A remembered conversation answer holds in a new session that reopens the conversation.
    const other = await host!.connect({ tabId: "tab-2" });
    await other.value("session:hello", { conversationId: first.conversationId! });
    await other.value("card:attach", { instanceId: second.instanceId });
    expect(await setName(other, second.instanceId, "ask-8")).toMatchObject(allowed("ask-8"));
    expect(other.received.filter((entry) => entry.event === "approval:request")).toEqual([]);
  });

  it("lets several questions wait at once while other calls and the chat go on", async () => {
    const counter = { calls: [] as string[] };
    const client = await startAskingHost(counter);
    const first = await openCard(client, "chat-1", "greet", { name: "A" });
    const second = await openCard(client, "chat-1", "greet", { name: "B" });

    const firstCall = setName(client, first.instanceId, "ask-first");
    const firstRequest = await client.next("approval:request");
    const secondCall = setName(client, second.instanceId, "ask-second");
    const secondRequest = await client.next("approval:request");
    expect(firstRequest.instanceId).toBe(first.instanceId);
    expect(secondRequest.instanceId).toBe(second.instanceId);
    expect(firstRequest.approvalId).not.toBe(secondRequest.approvalId);

    // Both wait; other calls, other cards and the chat carry on.
    expect(await setName(client, first.instanceId, "plain")).toMatchObject(allowed("plain"));
    const turn = await exchange(client, "chat-1", "Hello there");
    expect(turn.reply.status).toBe("complete");

    // Answered in the other order.
    await client.value("approval:answer", {
      approvalId: secondRequest.approvalId,
      decision: "allow-once",
    });
    expect(await secondCall).toMatchObject(allowed("ask-second"));
    await client.value("approval:answer", {
      approvalId: firstRequest.approvalId,
      decision: "refuse",
      reason: "No.",
    });
    expect(await firstCall).toEqual(refusal("No."));
    expect(counter.calls.filter((entry) => entry.startsWith("set-name"))).toEqual([
      "set-name:plain",
      "set-name:ask-second",
    ]);

    // An answer to a question no longer waiting is refused.
    const stale = await client.request("approval:answer", {
      approvalId: firstRequest.approvalId,
      decision: "allow-once",
    });
    expect(stale).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("refuses a waiting call when its card closes", async () => {
    const counter = { calls: [] as string[] };
    const client = await startAskingHost(counter);
    const card = await openCard(client, "chat-1", "greet", { name: "A" });
    const call = setName(client, card.instanceId, "ask-closing");
    const request = await client.next("approval:request");
    await client.value("card:teardown", { instanceId: card.instanceId, reason: "closed" });
    expect(await call).toEqual(refusal("The person did not answer; the card was closed."));
    expect(await client.next("approval:settled")).toEqual({ approvalId: request.approvalId });
    expect(counter.calls).toEqual(["greet:A"]);
  });

  it("refuses a waiting call when the person switches to another conversation", async () => {
    const counter = { calls: [] as string[] };
    const client = await startAskingHost(counter);
    const card = await openCard(client, "chat-1", "greet", { name: "A" });
    const call = setName(client, card.instanceId, "ask-switching");
    const request = await client.next("approval:request");
    await client.value("conversation:create", { title: "Another" });
    expect(await call).toEqual(refusal("The person did not answer; the card was closed."));
    expect(await client.next("approval:settled")).toEqual({ approvalId: request.approvalId });
    const late = await client.request("approval:answer", {
      approvalId: request.approvalId,
      decision: "allow-once",
    });
    expect(late).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(counter.calls).toEqual(["greet:A"]);
  });
});
