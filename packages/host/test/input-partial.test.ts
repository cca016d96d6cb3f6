// A tool call whose arguments the model streams (`tool-input-partial`): its card opens
// when the model starts writing them, the browser hears the arguments grow, then the final ones,
// then the result. The model is the AI SDK's mock, fed by hand so each step is observed in turn.
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { greeterApp, startHost, type TestClient, type TestHost } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model whose first step is written by the test, part by part; its second step says "Done." */
function handFedModel() {
  let feed!: ReadableStreamDefaultController<LanguageModelV3StreamPart>;
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    start: (controller) => void (feed = controller),
  });
  const model = new MockLanguageModelV3({
    doStream: [
      { stream },
      {
        stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Done." },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
        ]),
      },
    ],
  });
  return {
    model,
    push: (part: LanguageModelV3StreamPart) => feed.enqueue(part),
    /** Ends the step with the complete call. */
    call(toolCallId: string, input: string) {
      feed.enqueue({ type: "tool-input-end", id: toolCallId });
      feed.enqueue({ type: "tool-call", toolCallId, toolName: "greet", input });
      feed.enqueue({
        type: "finish",
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
      });
      feed.close();
    },
  };
}

async function start(options: { refuse?: string } = {}) {
  const counter = { calls: [] as string[] };
  const fed = handFedModel();
  host = await startHost({
    model: fed.model,
    session(session) {
      const chat = session.chat(
        options.refuse === undefined ? {} : { onToolRequest: () => options.refuse },
      );
      mcpChatHost(chat, greeterApp(counter));
    },
  });
  const client = await host.connect();
  const events = recordCardEvents(client);
  await client.value("session:hello", {});
  await client.value("message:send", { chatId: "chat-1", text: "Greet Ada", clientId: "m1" });
  fed.push({ type: "tool-input-start", id: "call-1", toolName: "greet" });
  const opened = await client.next("card:opened");
  return { ...fed, client, counter, events, card: opened.card };
}

/** Feeds one piece of the arguments and waits for the partial arguments it leads to. */
async function feedPiece(
  fed: Awaited<ReturnType<typeof start>>,
  delta: string,
  expected: Record<string, unknown>,
) {
  fed.push({ type: "tool-input-delta", id: "call-1", delta });
  const partial = await fed.client.next("card:input-partial", (payload) =>
    sameJson(payload.arguments, expected),
  );
  expect(partial.instanceId).toBe(fed.card.instanceId);
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** Records the names of the card and tool-start events a client receives, in order. */
function recordCardEvents(client: TestClient): string[] {
  const events: string[] = [];
  client.socket.onAny((event: string) => {
    if (event.startsWith("card:") || event === "tool:started") events.push(event);
  });
  return events;
}

describe("streamed tool arguments", () => {
  it("opens the card first, then relays growing, final arguments, then the result", async () => {
    const fed = await start();
    expect(fed.card).toMatchObject({ tool: "greet", arguments: {}, inputStreaming: true });
    expect(fed.counter.calls).toEqual([]);

    // Text that reads as no argument yet changes nothing, so it is not sent.
    fed.push({ type: "tool-input-delta", id: "call-1", delta: '{"na' });
    await feedPiece(fed, 'me":"Ad', { name: "Ad" });
    // A tab that attaches meanwhile gets the guess so far and knows more is coming.
    const attached = await fed.client.value("card:attach", { instanceId: fed.card.instanceId });
    expect(attached.toolInput).toEqual({ name: "Ad" });
    expect(attached.inputStreaming).toBe(true);
    await feedPiece(fed, "a L", { name: "Ada L" });
    await feedPiece(fed, 'ovelace"}', { name: "Ada Lovelace" });
    expect(fed.counter.calls).toEqual([]);

    fed.call("call-1", '{"name":"Ada Lovelace"}');
    const input = await fed.client.next("card:input");
    expect(input).toEqual({
      instanceId: fed.card.instanceId,
      arguments: { name: "Ada Lovelace" },
    });
    const result = await fed.client.next("card:result");
    expect(result.result).toMatchObject({
      content: [{ type: "text", text: "Hello, Ada Lovelace!" }],
    });
    const done = await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(done.message.parts.map((part) => part.type)).toEqual([
      "tool-call",
      "card",
      "tool-result",
      "text",
    ]);
    expect(fed.counter.calls).toEqual(["greet:Ada Lovelace"]);

    // Exactly one card; partials only between its opening and its final input.
    expect(fed.events).toEqual([
      "card:opened",
      "card:input-partial",
      "card:input-partial",
      "card:input-partial",
      "tool:started",
      "card:input",
      "card:result",
    ]);
    // The saved card has the final arguments and no streaming flag.
    const again = await fed.client.value("card:attach", { instanceId: fed.card.instanceId });
    expect(again.toolInput).toEqual({ name: "Ada Lovelace" });
    expect(again.inputStreaming).toBeUndefined();
  });

  it("cancels the card with the refusal when the checks refuse the call", async () => {
    const fed = await start({ refuse: "No greetings today." });
    await feedPiece(fed, '{"name":"Bo"}', { name: "Bo" });
    fed.call("call-1", '{"name":"Bo"}');
    const cancelled = await fed.client.next("card:cancelled");
    expect(cancelled).toEqual({
      instanceId: fed.card.instanceId,
      reason: "Tool call rejected. No greetings today.",
    });
    await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(fed.counter.calls).toEqual([]);
    // The refused call still gets its row (tool:started, then tool:refused), but no card:input.
    expect(fed.events).toEqual([
      "card:opened",
      "card:input-partial",
      "tool:started",
      "card:cancelled",
    ]);
  });

  it("withdraws the card when the arguments turn out not to be JSON: no live card, no place in the reply", async () => {
    const fed = await start();
    await feedPiece(fed, '{"name":"Bo', { name: "Bo" });
    fed.call("call-1", '{"name":"Bo');
    const withdrawn = await fed.client.next("card:withdrawn");
    expect(withdrawn).toEqual({
      instanceId: fed.card.instanceId,
      reason:
        "Tool call rejected. The arguments were not valid JSON; send them again as one JSON object.",
    });
    const done = await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(fed.counter.calls).toEqual([]);
    // The call's row says why; the reply keeps no card, and the card is not live any more.
    expect(done.message.parts.map((part) => part.type)).toEqual([
      "tool-call",
      "tool-result",
      "text",
    ]);
    expect(fed.events).toEqual([
      "card:opened",
      "card:input-partial",
      "tool:started",
      "card:withdrawn",
    ]);
    const attach = await fed.client.request("card:attach", { instanceId: fed.card.instanceId });
    expect(attach.ok).toBe(false);
    // A reopened conversation does not show it either.
    const snapshot = await fed.client.value("conversation:open", {
      conversationId: done.message.conversationId,
    });
    expect(
      snapshot.cards.filter(
        (card) => card.instanceId === fed.card.instanceId && card.closed !== true,
      ),
    ).toEqual([]);
  });

  it("cancels the card when the person stops the reply while the arguments stream", async () => {
    const fed = await start();
    await feedPiece(fed, '{"name":"Cy', { name: "Cy" });
    await fed.client.value("turn:stop", { chatId: "chat-1" });
    const cancelled = await fed.client.next("card:cancelled");
    expect(cancelled).toEqual({
      instanceId: fed.card.instanceId,
      reason: "The person stopped the reply.",
    });
    const done = await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(done.message.status).toBe("stopped");
    expect(fed.counter.calls).toEqual([]);
  });
});
