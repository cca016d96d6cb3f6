// The checks on the model's tool calls, through whole turns with the AI SDK's mock model and a
// real MCP server over the in-memory transport: what runs, what the model is told.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { runTurn } from "./model-runner";
import type { RunTurnOptions } from "./model-runner";
import {
  lastToolResults,
  startTestToolServer,
  textStep,
  toolCallStep,
} from "../testing/model-fixtures";
import type { TestToolServer } from "../testing/model-fixtures";
import type { ToolRequest } from "./tool-checks";
import type { TurnEvent } from "./turn-events";

let server: TestToolServer;
beforeAll(async () => {
  server = await startTestToolServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.calls.length = 0;
});

function mockModel(...steps: LanguageModelV3StreamPart[][]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: steps.map((parts) => ({ stream: convertArrayToReadableStream(parts) })),
  });
}

async function turnWith(
  model: MockLanguageModelV3,
  options: Partial<RunTurnOptions> = {},
): Promise<{ events: TurnEvent[] } & Awaited<ReturnType<typeof runTurn>>> {
  const events: TurnEvent[] = [];
  const result = await runTurn({
    model,
    messages: [{ role: "user", content: "go" }],
    tools: server.tools,
    maxSteps: 5,
    maxToolCalls: 5,
    permissions: { web: false, write: false },
    events: (event) => events.push(event),
    ...options,
  });
  return { ...result, events };
}

function refusals(events: TurnEvent[]) {
  return events.flatMap((event) =>
    event.type === "tool-output-denied" ? [[event.toolCallId, event.check, event.reason]] : [],
  );
}

describe("annotation permissions", () => {
  test("a destructive tool with write off never runs; the model reads the refusal", async () => {
    const model = mockModel(toolCallStep(["c1", "delete-note", {}]), textStep("ok"));
    const turn = await turnWith(model, { permissions: { web: true, write: false } });
    expect(server.calls).toEqual([]);
    const reason = "Tool is marked as destructive and write operations are disabled";
    expect(refusals(turn.events)).toEqual([["c1", "permission", reason]]);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      ["delete-note", { type: "error-text", value: `Tool call rejected. ${reason}` }],
    ]);
    expect(turn.events.some((event) => event.type === "tool-call")).toBe(false);
  });

  test("an unannotated tool is open world: with web off it never runs", async () => {
    const model = mockModel(toolCallStep(["c1", "fetch-page", {}]), textStep("ok"));
    const turn = await turnWith(model, { permissions: { web: false, write: true } });
    expect(server.calls).toEqual([]);
    const reason = "Tool can access external resources but web access is disabled";
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      ["fetch-page", { type: "error-text", value: `Tool call rejected. ${reason}` }],
    ]);
    expect(refusals(turn.events)).toEqual([["c1", "permission", reason]]);
  });

  test("with web and write on, the same tools run", async () => {
    const model = mockModel(
      toolCallStep(["c1", "fetch-page", {}], ["c2", "delete-note", {}]),
      textStep("ok"),
    );
    const turn = await turnWith(model, { permissions: { web: true, write: true } });
    expect([...server.calls].sort()).toEqual(["delete-note", "fetch-page"]);
    expect(refusals(turn.events)).toEqual([]);
  });
});

describe("the chat's onToolRequest hook", () => {
  test("sees the request and its refusal text reaches the model", async () => {
    const requests: ToolRequest[] = [];
    const model = mockModel(toolCallStep(["c1", "echo", { text: "hi" }]), textStep("ok"));
    const turn = await turnWith(model, {
      onToolRequest: (request) => {
        requests.push(request);
        return Promise.resolve("Not in this chat.");
      },
    });
    expect(requests).toEqual([
      {
        toolCallId: "c1",
        name: "echo",
        arguments: { text: "hi" },
        annotations: { readOnlyHint: true, openWorldHint: false },
        source: "test-tools",
      },
    ]);
    expect(server.calls).toEqual([]);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      ["echo", { type: "error-text", value: "Tool call rejected. Not in this chat." }],
    ]);
    expect(refusals(turn.events)).toEqual([["c1", "hook", "Not in this chat."]]);
  });

  test("is not asked when the permission check already refused", async () => {
    let asked = 0;
    const model = mockModel(toolCallStep(["c1", "delete-note", {}]), textStep("ok"));
    await turnWith(model, {
      onToolRequest: () => {
        asked += 1;
        return true;
      },
    });
    expect(asked).toBe(0);
  });

  test("true lets the call run", async () => {
    const model = mockModel(toolCallStep(["c1", "echo", { text: "hi" }]), textStep("ok"));
    await turnWith(model, { onToolRequest: () => true });
    expect(server.calls).toEqual(["echo"]);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      ["echo", { type: "text", value: "hi" }],
    ]);
  });
});

describe("the per-turn budget", () => {
  test("past maxToolCalls, calls are refused with a message saying the budget is spent", async () => {
    const model = mockModel(
      toolCallStep(["c1", "get-time", {}]),
      toolCallStep(["c2", "get-time", {}]),
      textStep("done"),
    );
    const turn = await turnWith(model, { maxToolCalls: 1 });
    expect(server.calls).toEqual(["get-time"]);
    const reason = "This reply has used its budget of 1 tool call; answer with what you have.";
    expect(refusals(turn.events)).toEqual([["c2", "budget", reason]]);
    expect(lastToolResults(model.doStreamCalls[2])).toEqual([
      ["get-time", { type: "error-text", value: `Tool call rejected. ${reason}` }],
    ]);
  });

  test("calls made together in one step share the budget", async () => {
    const model = mockModel(
      toolCallStep(["c1", "get-time", {}], ["c2", "get-time", {}], ["c3", "get-time", {}]),
      textStep("done"),
    );
    const turn = await turnWith(model, { maxToolCalls: 2 });
    expect(server.calls).toEqual(["get-time", "get-time"]);
    expect(refusals(turn.events).map(([, check]) => check)).toEqual(["budget"]);
  });

  test("refused calls do not spend it", async () => {
    const model = mockModel(
      toolCallStep(["c1", "delete-note", {}]),
      toolCallStep(["c2", "get-time", {}]),
      textStep("done"),
    );
    await turnWith(model, { maxToolCalls: 1 });
    expect(server.calls).toEqual(["get-time"]);
  });
});

describe("arguments", () => {
  test("go through as sent, without the top-level nulls", async () => {
    const model = mockModel(
      toolCallStep(["c1", "echo", { text: "hi", tags: ["a"], note: null }]),
      textStep("ok"),
    );
    const turn = await turnWith(model);
    const started = turn.events.find((event) => event.type === "tool-call");
    expect(started).toEqual({
      type: "tool-call",
      toolCallId: "c1",
      name: "echo",
      arguments: { text: "hi", tags: ["a"] },
    });
  });

  test("arguments that are not an object are refused before any check", async () => {
    const model = mockModel(toolCallStep(["c1", "echo", ["hi"]]), textStep("ok"));
    const turn = await turnWith(model);
    expect(server.calls).toEqual([]);
    expect(refusals(turn.events)).toEqual([
      ["c1", "arguments", "The arguments must be a JSON object."],
    ]);
  });
});
