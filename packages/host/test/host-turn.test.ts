import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { greeterApp, nextChunk, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

describe("a whole turn through a real socket", () => {
  it("opens a card, replays its result on attach, and passes a page call through the gate", async () => {
    const counter = { calls: [] as string[] };
    const app = greeterApp(counter);
    const seen: string[] = [];
    host = await startHost({
      session(session) {
        const chat = session.chat();
        mcpChatHost(chat, app, {
          onAppCall: (call) => {
            seen.push(`${call.name} ${call.chat} ${call.kind} ${call.source}`);
            return call.arguments["name"] === "Bo" ? "Not Bo." : true;
          },
        });
      },
    });
    const client = await host.connect();
    const hello = await client.value("session:hello", {});
    expect(hello.chats.map((chat) => chat.id)).toEqual(["chat-1"]);
    expect(hello.current).toBeNull();

    const sent = await client.value("message:send", {
      chatId: "chat-1",
      text: '/call greet {"name":"Ada"}',
      clientId: "m1",
    });
    expect(sent.duplicate).toBe(false);
    const opened = await nextChunk(client, "data-card");
    expect(opened.card).toMatchObject({
      chatId: "chat-1",
      source: "greeter",
      tool: "greet",
      arguments: { name: "Ada" },
      checked: true,
    });
    const result = await nextChunk(client, "tool-output-available");
    expect(result.toolCallId).toBe(opened.toolCallId);
    expect(result.cardResult).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
    const done = await client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant",
    );
    expect(done.message.status).toBe("complete");
    expect(done.message.parts.map((part) => part.type)).toEqual(["tool", "text"]);
    expect(done.message.parts[0]).toMatchObject({
      state: "output-available",
      instanceId: opened.card.instanceId,
    });
    expect(seen).toEqual([]); // the opening call is never checked

    const attach = await client.value("card:attach", { instanceId: opened.card.instanceId });
    expect(attach.page.html).toContain("Greeter");
    expect(attach.toolInput).toEqual({ name: "Ada" });
    expect(attach.appTools).toEqual(["greet", "set-name"]);
    expect(new URL(attach.page.sandboxOrigin).origin).not.toBe(host.origin);

    const allowed = await client.value("card:call-tool", {
      instanceId: opened.card.instanceId,
      name: "set-name",
      arguments: { name: "Cy" },
    });
    expect(allowed).toMatchObject({ content: [{ type: "text", text: "Name set to Cy." }] });
    const refused = await client.request("card:call-tool", {
      instanceId: opened.card.instanceId,
      name: "set-name",
      arguments: { name: "Bo" },
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "refused", message: "Not Bo.", rpcCode: -32602 },
    });
    const modelOnly = await client.request("card:call-tool", {
      instanceId: opened.card.instanceId,
      name: "secret",
      arguments: {},
    });
    expect(modelOnly).toMatchObject({
      ok: false,
      error: { message: 'The app can\'t call the tool "secret".', rpcCode: -32602 },
    });
    expect(seen).toEqual(["set-name chat-1 card greeter", "set-name chat-1 card greeter"]);
    expect(counter.calls).toEqual(["greet:Ada", "set-name:Cy"]);
  });
});
