// A tool call whose arguments the model streams (`tool-input-partial` on the page): its tool part
// is born and its card opens when the model starts writing them, the browser hears the arguments
// grow, then the final ones, then the result, all as the part's chunks. The model is the AI SDK's
// mock, fed by hand so each step is observed in turn.
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import {
  greeterApp,
  nextChunk,
  receivedOf,
  recordChunkTypes,
  startHost,
  type TestHost,
} from "./harness";

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
  const events = recordChunkTypes(client);
  await client.value("session:hello", {});
  await client.value("message:send", { chatId: "chat-1", text: "Greet Ada", clientId: "m1" });
  fed.push({ type: "tool-input-start", id: "call-1", toolName: "greet" });
  const opened = await nextChunk(client, "data-card");
  expect(opened.toolCallId).toBe("call-1");
  return { ...fed, client, counter, events, card: opened.card };
}

/** Feeds one piece of the arguments and waits for the partial arguments it leads to. */
async function feedPiece(
  fed: Awaited<ReturnType<typeof start>>,
  delta: string,
  expected: Record<string, unknown>,
) {
  fed.push({ type: "tool-input-delta", id: "call-1", delta });
  const partial = await nextChunk(fed.client, "tool-input-delta", (chunk) =>
    sameJson(chunk.input, expected),
  );
  expect(partial.toolCallId).toBe("call-1");
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** The chunk verbs of the tool part (the reply's text after it left out). */
function toolVerbs(events: readonly string[]): string[] {
  return events.filter((type) => !type.startsWith("text-"));
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
    const input = await nextChunk(fed.client, "tool-input-available");
    expect(input).toEqual({
      type: "tool-input-available",
      toolCallId: "call-1",
      input: { name: "Ada Lovelace" },
    });
    const output = await nextChunk(fed.client, "tool-output-available");
    expect(output.cardResult).toMatchObject({
      content: [{ type: "text", text: "Hello, Ada Lovelace!" }],
    });
    const done = await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(done.message.parts.map((part) => part.type)).toEqual(["tool", "text"]);
    expect(done.message.parts[0]).toMatchObject({
      type: "tool",
      toolCallId: "call-1",
      name: "greet",
      state: "output-available",
      input: { name: "Ada Lovelace" },
      output: "Hello, Ada Lovelace!",
      instanceId: fed.card.instanceId,
    });
    expect(fed.counter.calls).toEqual(["greet:Ada Lovelace"]);

    // One part, born first, its card next; partials only before its final input.
    expect(toolVerbs(fed.events)).toEqual([
      "tool-input-start",
      "data-card",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-available",
      "tool-output-available",
    ]);
    // The saved card has the final arguments and no streaming flag.
    const again = await fed.client.value("card:attach", { instanceId: fed.card.instanceId });
    expect(again.toolInput).toEqual({ name: "Ada Lovelace" });
    expect(again.inputStreaming).toBeUndefined();
  });

  it("gives a tab that joins mid-call the tool part as far as it got, then the chunks that follow", async () => {
    const fed = await start();
    await feedPiece(fed, '{"name":"Ad', { name: "Ad" });
    const conversationId = fed.card.conversationId!;
    const other = await host!.connect({ tabId: "tab-2" });
    await other.value("session:hello", {});
    const snapshot = await other.value("conversation:open", { conversationId });
    const streaming = snapshot.messages.find((message) => message.status === "streaming");
    expect(streaming?.parts).toEqual([
      {
        type: "tool",
        toolCallId: "call-1",
        name: "greet",
        source: "greeter",
        state: "input-streaming",
        input: { name: "Ad" },
        instanceId: fed.card.instanceId,
      },
    ]);
    expect(snapshot.cards.map((card) => card.instanceId)).toContain(fed.card.instanceId);

    await feedPiece(fed, 'a"}', { name: "Ada" });
    fed.call("call-1", '{"name":"Ada"}');
    const output = await nextChunk(other, "tool-output-available");
    expect(output.toolCallId).toBe("call-1");
    const joined = receivedOf(other, "message:chunk").map(({ chunk }) => chunk.type);
    expect(joined.filter((type) => !type.startsWith("text-"))).toEqual([
      "tool-input-delta",
      "tool-input-available",
    ]);
  });

  it("cancels the card with the refusal when the checks refuse the call", async () => {
    const fed = await start({ refuse: "No greetings today." });
    await feedPiece(fed, '{"name":"Bo"}', { name: "Bo" });
    fed.call("call-1", '{"name":"Bo"}');
    const denied = await nextChunk(fed.client, "tool-output-denied");
    expect(denied).toEqual({
      type: "tool-output-denied",
      toolCallId: "call-1",
      reason: "No greetings today.",
    });
    const done = await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(fed.counter.calls).toEqual([]);
    // The refused call keeps its part and its card, which shows the refusal.
    expect(toolVerbs(fed.events)).toEqual([
      "tool-input-start",
      "data-card",
      "tool-input-delta",
      "tool-output-denied",
    ]);
    expect(done.message.parts[0]).toMatchObject({
      type: "tool",
      state: "output-denied",
      errorText: "No greetings today.",
      instanceId: fed.card.instanceId,
    });
    const attached = await fed.client.value("card:attach", { instanceId: fed.card.instanceId });
    expect(attached.cancelled).toBe("Tool call rejected. No greetings today.");
  });

  it("withdraws the card when the arguments turn out not to be JSON: no live card, no place in the reply", async () => {
    const fed = await start();
    await feedPiece(fed, '{"name":"Bo', { name: "Bo" });
    fed.call("call-1", '{"name":"Bo');
    const withdrawn = await nextChunk(fed.client, "data-card-withdrawn");
    expect(withdrawn).toEqual({
      type: "data-card-withdrawn",
      toolCallId: "call-1",
      instanceId: fed.card.instanceId,
      reason:
        "Tool call rejected. The arguments were not valid JSON; send them again as one JSON object.",
    });
    const done = await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(fed.counter.calls).toEqual([]);
    // The call's part says why; it keeps no card, and the card is not live any more.
    expect(done.message.parts.map((part) => part.type)).toEqual(["tool", "text"]);
    expect(done.message.parts[0]).toMatchObject({ type: "tool", state: "output-denied" });
    expect(done.message.parts[0]).not.toHaveProperty("instanceId");
    expect(toolVerbs(fed.events)).toEqual([
      "tool-input-start",
      "data-card",
      "tool-input-delta",
      "data-card-withdrawn",
      "tool-output-denied",
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
    const failed = await nextChunk(fed.client, "tool-output-error");
    expect(failed).toMatchObject({
      toolCallId: "call-1",
      errorText: "The person stopped the reply.",
    });
    expect(failed.cardResult).toBeUndefined();
    const done = await fed.client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(done.message.status).toBe("stopped");
    expect(done.message.parts[0]).toMatchObject({ type: "tool", state: "output-error" });
    expect(fed.counter.calls).toEqual([]);
    const attached = await fed.client.value("card:attach", { instanceId: fed.card.instanceId });
    expect(attached.cancelled).toBe("The person stopped the reply.");
  });
});
