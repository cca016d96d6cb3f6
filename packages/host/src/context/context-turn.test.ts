// The relay through whole turns: the AI SDK's own tool loop with a mock model, the way the model
// runner uses it (context built at send time, messages passed once to streamText).
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { stepCountIs, streamText, tool, type ModelMessage } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  APP_CONTEXT_HEADER,
  buildAppContext,
  withAppContext,
  type ContextCard,
} from "./context-relay";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function toolCallStep(toolCallId: string): LanguageModelV3StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "tool-call", toolCallId, toolName: "search", input: "{}" },
    { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
  ];
}

function textStep(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: text },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
  ];
}

/** A model that calls `search` once per person message, then answers. */
function scriptedModel(): MockLanguageModelV3 {
  const steps = [
    toolCallStep("call-1"),
    textStep("Found it."),
    toolCallStep("call-2"),
    textStep("Done."),
  ];
  let index = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const step = steps[index++];
      if (step === undefined) throw new Error("The test model has no more steps.");
      return { stream: convertArrayToReadableStream(step) };
    },
  });
}

/** Every text the model was sent in one request. */
function promptTexts(call: LanguageModelV3CallOptions): string[] {
  const texts: string[] = [];
  for (const message of call.prompt) {
    if (typeof message.content === "string") {
      texts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text") texts.push(part.text);
      if (part.type === "tool-result") texts.push(JSON.stringify(part.output));
    }
  }
  return texts;
}

function occurrences(texts: readonly string[], needle: string): number {
  return texts.reduce((count, text) => count + text.split(needle).length - 1, 0);
}

async function runTurn(
  model: MockLanguageModelV3,
  history: ModelMessage[],
  personText: string,
  cards: ContextCard[],
): Promise<ModelMessage[]> {
  const person: ModelMessage = { role: "user", content: personText };
  const result = streamText({
    model,
    messages: withAppContext(history, person, buildAppContext(cards, "chat-1")),
    tools: {
      search: tool({
        inputSchema: z.object({}),
        execute: async () => "search result",
      }),
    },
    stopWhen: stepCountIs(3),
  });
  await result.consumeStream();
  const response = await result.response;
  // What the runner stores: the person's message and the reply, never the context.
  return [...history, person, ...response.messages];
}

describe("the context relay through whole turns", () => {
  it("keeps the context through the tool loop, never stores it, and sends the current report", async () => {
    const model = scriptedModel();
    const flights: ContextCard = {
      instanceId: "host-flights",
      title: "Flights",
      tool: "search-flights",
      kind: "card",
      ownerChat: "chat-1",
      disposed: false,
      report: { content: [{ type: "text", text: "Showing 8 flights" }] },
      reportedAt: 1,
    };

    const stored = await runTurn(model, [], "Which is cheapest?", [flights]);
    expect(model.doStreamCalls).toHaveLength(2);
    for (const call of model.doStreamCalls) {
      const texts = promptTexts(call);
      expect(occurrences(texts, APP_CONTEXT_HEADER)).toBe(1);
      expect(occurrences(texts, "Showing 8 flights")).toBe(1);
    }
    // The context sits just before the person's message, in the tool round too.
    const secondPrompt = model.doStreamCalls[1]?.prompt ?? [];
    expect(secondPrompt.map((message) => message.role)).toEqual([
      "user",
      "user",
      "assistant",
      "tool",
    ]);
    expect(JSON.stringify(secondPrompt[0])).toContain(APP_CONTEXT_HEADER);
    expect(secondPrompt[1]?.content).toEqual([{ type: "text", text: "Which is cheapest?" }]);

    expect(stored.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(JSON.stringify(stored)).not.toContain("app-context");
    expect(JSON.stringify(stored)).not.toContain("Showing 8");

    const updated: ContextCard = {
      ...flights,
      report: { content: [{ type: "text", text: "Showing 4 flights" }] },
      reportedAt: 2,
    };
    const storedAgain = await runTurn(model, stored, "And now?", [updated]);
    expect(model.doStreamCalls).toHaveLength(4);
    const thirdTexts = promptTexts(model.doStreamCalls[2]!);
    expect(occurrences(thirdTexts, "Showing 4 flights")).toBe(1);
    expect(occurrences(thirdTexts, "Showing 8")).toBe(0);
    expect(occurrences(thirdTexts, APP_CONTEXT_HEADER)).toBe(1);
    const thirdRoles = model.doStreamCalls[2]?.prompt.map((message) => message.role);
    expect(thirdRoles).toEqual(["user", "assistant", "tool", "assistant", "user", "user"]);
    const fourthTexts = promptTexts(model.doStreamCalls[3]!);
    expect(occurrences(fourthTexts, APP_CONTEXT_HEADER)).toBe(1);

    expect(JSON.stringify(storedAgain)).not.toContain("app-context");
    expect(storedAgain).toHaveLength(8);
  });

  it("leaves the request unchanged when no card reports", async () => {
    const model = scriptedModel();
    await runTurn(model, [], "Hello", []);
    const first = model.doStreamCalls[0]?.prompt ?? [];
    expect(first).toEqual([{ role: "user", content: [{ type: "text", text: "Hello" }] }]);
  });
});
