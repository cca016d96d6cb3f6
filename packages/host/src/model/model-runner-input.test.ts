// Streamed tool arguments through runTurn: the AI SDK's `tool-input-*` parts become
// `tool-input-start` / `tool-input-delta` events (with the text so far) before the call runs.
import { afterEach, beforeEach, expect, test } from "vitest";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { runTurn } from "./model-runner";
import { startTestToolServer, textStep, toolCallStep } from "../testing/model-fixtures";
import type { TestToolServer } from "../testing/model-fixtures";
import type { TurnEvent } from "./turn-events";

let server: TestToolServer;
beforeEach(async () => {
  server = await startTestToolServer();
});
afterEach(async () => {
  await server.close();
});

function streamedCall(toolCallId: string, toolName: string, pieces: string[]) {
  const parts: LanguageModelV3StreamPart[] = [
    { type: "tool-input-start", id: toolCallId, toolName },
    ...pieces.map((delta) => ({ type: "tool-input-delta" as const, id: toolCallId, delta })),
    { type: "tool-input-end", id: toolCallId },
  ];
  return [...parts, ...toolCallStep([toolCallId, toolName, JSON.parse(pieces.join(""))])];
}

test("relays streamed arguments, accumulated, before the call starts", async () => {
  const model = new MockLanguageModelV3({
    doStream: [
      {
        stream: convertArrayToReadableStream(streamedCall("c1", "add", ['{"a":', "2,", '"b":3}'])),
      },
      { stream: convertArrayToReadableStream(textStep("Five.")) },
    ],
  });
  const events: TurnEvent[] = [];
  const result = await runTurn({
    model,
    messages: [{ role: "user", content: "add 2 and 3" }],
    tools: server.tools,
    maxSteps: 5,
    maxToolCalls: 5,
    permissions: { web: false, write: false },
    events: (event) => events.push(event),
  });

  expect(result.status).toBe("complete");
  const toolEvents = events
    .filter((event) => event.type.startsWith("tool-"))
    .map((event) =>
      event.type === "tool-input-delta"
        ? [event.type, event.toolCallId, event.name, event.partialJson]
        : [event.type, "toolCallId" in event ? event.toolCallId : ""],
    );
  expect(toolEvents).toEqual([
    ["tool-input-start", "c1"],
    ["tool-input-delta", "c1", "add", '{"a":'],
    ["tool-input-delta", "c1", "add", '{"a":2,'],
    ["tool-input-delta", "c1", "add", '{"a":2,"b":3}'],
    ["tool-call", "c1"],
    ["tool-result", "c1"],
  ]);
  expect(events[0]).toEqual({ type: "tool-input-start", toolCallId: "c1", name: "add" });
});
