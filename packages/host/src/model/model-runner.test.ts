// Whole turns through runTurn: the tool loop, the events, stopping, and failures. The model is the
// AI SDK's mock; the tools are a real MCP server over the in-memory transport.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { ModelTurnError, runTurn } from "./model-runner";
import type { RunTurnOptions } from "./model-runner";
import { TOOL_CANCELLED_TEXT } from "./step-record";
import {
  FIXED_TIME,
  lastToolResults,
  recordEvents,
  startTestToolServer,
  textStep,
  toolCallStep,
} from "../testing/model-fixtures";
import type { TestToolServer } from "../testing/model-fixtures";
import type { HostTool } from "./host-tool";
import type { TurnEvent } from "./turn-events";

let server: TestToolServer;
beforeEach(async () => {
  server = await startTestToolServer();
});
afterEach(async () => {
  await server.close();
});

function mockModel(...steps: LanguageModelV3StreamPart[][]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: steps.map((parts) => ({ stream: convertArrayToReadableStream(parts) })),
  });
}

function options(
  model: RunTurnOptions["model"],
  events: TurnEvent[],
  overrides: Partial<RunTurnOptions> = {},
): RunTurnOptions {
  return {
    model,
    messages: [{ role: "user", content: "what time is it?" }],
    tools: server.tools,
    maxSteps: 5,
    maxToolCalls: 5,
    permissions: { web: false, write: false },
    events: (event) => events.push(event),
    ...overrides,
  };
}

describe("a turn with a tool loop", () => {
  test("runs the tool, feeds its result back, and returns the messages to store", async () => {
    const model = mockModel(toolCallStep(["c1", "get-time", {}]), textStep("It is morning."));
    const events: TurnEvent[] = [];
    const result = await runTurn(options(model, events, { system: "Be brief." }));

    expect(result.status).toBe("complete");
    expect(result.text).toBe("It is morning.");
    expect(result.finishReason).toBe("stop");
    expect(result.responseMessages.map((message) => message.role)).toEqual([
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(server.calls).toEqual(["get-time"]);
    // The second request carries the tool's result as the model sees it.
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      ["get-time", { type: "text", value: FIXED_TIME }],
    ]);
    expect(model.doStreamCalls[0]?.prompt[0]).toEqual({ role: "system", content: "Be brief." });

    expect(events.map((event) => event.type)).toEqual([
      "tool-call",
      "tool-result",
      "step-started",
      "text-delta",
      "finished",
    ]);
    expect(events.find((event) => event.type === "step-started")).toEqual({
      type: "step-started",
      step: 1,
    });
    const finished = events.find((event) => event.type === "tool-result");
    expect(finished).toMatchObject({
      toolCallId: "c1",
      name: "get-time",
      isError: false,
      value: FIXED_TIME,
      raw: { content: [{ type: "text", text: FIXED_TIME }] },
    });
    expect(events.at(-1)).toEqual({ type: "finished", ...result });
  });

  test("the model is given each tool's description, schema and title", async () => {
    const model = mockModel(textStep("hi"));
    await runTurn(options(model, []));
    const tools = model.doStreamCalls[0]?.tools ?? [];
    expect(tools.map((tool) => tool.name)).toEqual(server.tools.map((tool) => tool.name));
    expect(tools[0]).toMatchObject({
      type: "function",
      name: "get-time",
      description: "The server's time.",
      providerOptions: { offline: { title: "Server Time" } },
    });
    expect(tools[1]).toMatchObject({
      name: "add",
      inputSchema: { type: "object", required: ["a", "b"] },
    });
  });

  test("a failed tool reaches the model as an error", async () => {
    const model = mockModel(toolCallStep(["c1", "fail", {}]), textStep("sorry"));
    const events: TurnEvent[] = [];
    await runTurn(options(model, events));
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      ["fail", { type: "error-text", value: "Disk is full" }],
    ]);
    expect(events.find((event) => event.type === "tool-result")).toMatchObject({ isError: true });
  });

  test("a tool that throws is reported to the model, not to the caller", async () => {
    const throwing: HostTool = {
      name: "broken",
      description: "",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true, openWorldHint: false },
      source: "test",
      execute: () => Promise.reject(new Error("connection closed")),
    };
    const model = mockModel(toolCallStep(["c1", "broken", {}]), textStep("sorry"));
    const result = await runTurn(options(model, [], { tools: [throwing] }));
    expect(result.status).toBe("complete");
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      ["broken", { type: "error-text", value: "The tool call failed: connection closed" }],
    ]);
  });

  test("stops after maxSteps even when the model keeps calling tools", async () => {
    const model = mockModel(
      toolCallStep(["c1", "get-time", {}]),
      toolCallStep(["c2", "get-time", {}]),
      toolCallStep(["c3", "get-time", {}]),
    );
    const result = await runTurn(options(model, [], { maxSteps: 2 }));
    expect(model.doStreamCalls.length).toBe(2);
    expect(result.status).toBe("complete");
    expect(result.finishReason).toBe("tool-calls");
  });
});

describe("stopping a turn", () => {
  test("mid-tool: the call is cancelled on the server and the turn resolves as stopped", async () => {
    const model = mockModel(toolCallStep(["c1", "slow", {}]), textStep("never"));
    const events: TurnEvent[] = [];
    const controller = new AbortController();
    const turn = runTurn(options(model, events, { signal: controller.signal }));
    await server.slowStarted;
    controller.abort();
    const result = await turn;
    await server.slowCancelled; // the abort reached the MCP server as a cancellation

    expect(result.status).toBe("stopped");
    expect(model.doStreamCalls.length).toBe(1);
    expect(events.find((event) => event.type === "tool-progress")).toEqual({
      type: "tool-progress",
      toolCallId: "c1",
      progress: 1,
      total: 3,
      message: "warming up",
    });
    expect(events.slice(-2)).toEqual([
      { type: "tool-cancelled", toolCallId: "c1", name: "slow" },
      { type: "finished", ...result },
    ]);
    expect(events.some((event) => event.type === "tool-result")).toBe(false);
    // The history stays valid: the call is stored with a result saying it was cancelled.
    expect(result.responseMessages).toEqual([
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "slow", input: {} }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "slow",
            output: { type: "error-text", value: TOOL_CANCELLED_TEXT },
          },
        ],
      },
    ]);
  });

  test("a tool that ignores its signal cannot hold the turn, and sends no events after it", async () => {
    let seenSignal: AbortSignal | undefined;
    let finish = (): void => {};
    const stubborn: HostTool = {
      name: "stubborn",
      description: "",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true, openWorldHint: false },
      source: "test",
      execute: (_args, context) => {
        seenSignal = context.signal;
        return new Promise((resolve) => {
          finish = () => resolve({ value: "late", isError: false });
        });
      },
    };
    const model = mockModel(toolCallStep(["c1", "stubborn", {}]), textStep("never"));
    const { events, listener, waitFor } = recordEvents();
    const controller = new AbortController();
    const turn = runTurn(
      options(model, [], { tools: [stubborn], signal: controller.signal, events: listener }),
    );
    await waitFor("tool-call");
    controller.abort();
    const result = await turn;
    expect(result.status).toBe("stopped");
    expect(seenSignal?.aborted).toBe(true);
    const count = events.length;
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.length).toBe(count);
  });

  test("mid-text: what was said is kept", async () => {
    const model = new MockLanguageModelV3({
      doStream: () =>
        Promise.resolve({
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              controller.enqueue({ type: "text-start", id: "text" });
              controller.enqueue({ type: "text-delta", id: "text", delta: "Hel" });
            },
            // The model never finishes on its own.
            pull: () => new Promise(() => {}),
          }),
        }),
    });
    const { listener, waitFor } = recordEvents();
    const controller = new AbortController();
    const turn = runTurn(options(model, [], { signal: controller.signal, events: listener }));
    await waitFor("text-delta");
    controller.abort();
    const result = await turn;
    expect(result).toEqual({
      status: "stopped",
      text: "Hel",
      responseMessages: [{ role: "assistant", content: [{ type: "text", text: "Hel" }] }],
    });
  });

  test("an already aborted signal stops before the model is asked", async () => {
    const model = mockModel(textStep("hi"));
    const result = await runTurn(options(model, [], { signal: AbortSignal.abort() }));
    expect(result).toEqual({ status: "stopped", responseMessages: [], text: "" });
    expect(model.doStreamCalls.length).toBe(0);
  });
});

describe("failures resolve, never reject", () => {
  test("a model error gives status error and an error event", async () => {
    const failure = new Error("model unavailable");
    const model = new MockLanguageModelV3({ doStream: () => Promise.reject(failure) });
    const events: TurnEvent[] = [];
    const result = await runTurn(options(model, events));
    expect(result.status).toBe("error");
    expect(result.error).toBe(failure);
    expect(result.failure).toEqual({
      kind: "provider-error",
      message:
        "The model failed with an unexpected error. Try again; if it keeps happening, check the server's log.",
      retryable: true,
      provider: "mock-provider",
    });
    expect(events).toEqual([
      { type: "error", error: failure, failure: result.failure, responseMessages: [] },
    ]);
  });

  test("a listener that throws ends the turn with its error", async () => {
    const failure = new Error("socket gone");
    const model = mockModel(toolCallStep(["c1", "get-time", {}]), textStep("hi"));
    const result = await runTurn({
      ...options(model, []),
      events: (event) => {
        if (event.type === "tool-call") throw failure;
      },
    });
    expect(result.status).toBe("error");
    expect(result.error).toBe(failure);
    expect(result.failure).toMatchObject({ kind: "host", retryable: true });
    expect(result.failure?.message).not.toContain("socket gone");
  });

  test("two tools with one name, or a bad limit, are refused before the model is asked", async () => {
    const model = mockModel(textStep("hi"));
    const [first] = server.tools;
    const duplicate = await runTurn(options(model, [], { tools: [first!, { ...first! }] }));
    expect(duplicate.status).toBe("error");
    expect(duplicate.error).toBeInstanceOf(ModelTurnError);
    expect((duplicate.error as ModelTurnError).code).toBe("duplicate-tool-name");
    expect(duplicate.failure).toEqual({
      kind: "host",
      message: (duplicate.error as ModelTurnError).message,
      retryable: false,
    });
    const badLimit = await runTurn(options(model, [], { maxSteps: 0 }));
    expect((badLimit.error as ModelTurnError).code).toBe("invalid-limit");
    expect(model.doStreamCalls.length).toBe(0);
  });
});
