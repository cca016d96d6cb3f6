// What the runner sends and reports besides the text: usage summed over steps, tool calls the
// SDK could not run (unknown tool, broken JSON), and Anthropic's prompt-cache breakpoints.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { ARGUMENTS_NOT_JSON_REASON, unknownToolReason } from "./invalid-tool-call";
import { runTurn } from "./model-runner";
import type { RunTurnOptions } from "./model-runner";
import {
  lastToolResults,
  startTestToolServer,
  textStep,
  toolCallStep,
} from "../testing/model-fixtures";
import type { TestToolServer } from "../testing/model-fixtures";
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

function mockModel(provider: string, ...steps: LanguageModelV3StreamPart[][]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider,
    doStream: steps.map((parts) => ({ stream: convertArrayToReadableStream(parts) })),
  });
}

function withUsage(
  parts: LanguageModelV3StreamPart[],
  input: number,
  output: number,
  cacheRead?: number,
): LanguageModelV3StreamPart[] {
  return parts.map((part) =>
    part.type === "finish"
      ? {
          ...part,
          usage: {
            inputTokens: {
              total: input,
              noCache: input - (cacheRead ?? 0),
              cacheRead,
              cacheWrite: undefined,
            },
            outputTokens: { total: output, text: output, reasoning: undefined },
          },
        }
      : part,
  );
}

function functionTools(tools: LanguageModelV3CallOptions["tools"]): LanguageModelV3FunctionTool[] {
  return (tools ?? []).flatMap((tool) => (tool.type === "function" ? [tool] : []));
}

function options(
  model: MockLanguageModelV3,
  overrides: Partial<RunTurnOptions> = {},
): RunTurnOptions {
  return {
    model,
    messages: [{ role: "user", content: "go" }],
    tools: server.tools,
    maxSteps: 5,
    maxToolCalls: 5,
    permissions: { web: false, write: false },
    ...overrides,
  };
}

describe("usage", () => {
  test("is summed over the steps, cached input tokens included", async () => {
    const model = mockModel(
      "openai.responses",
      withUsage(toolCallStep(["c1", "get-time", {}]), 100, 10, 80),
      withUsage(textStep("Done."), 130, 5, 100),
    );
    const result = await runTurn(options(model));
    expect(result.usage).toEqual({ inputTokens: 230, outputTokens: 15, cachedInputTokens: 180 });
  });

  test("a stopped turn reports the usage of its finished steps", async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        {
          stream: convertArrayToReadableStream(withUsage(toolCallStep(["c1", "slow", {}]), 50, 7)),
        },
      ],
    });
    const controller = new AbortController();
    const turn = runTurn(options(model, { signal: controller.signal }));
    await server.slowStarted;
    controller.abort();
    const result = await turn;
    expect(result.status).toBe("stopped");
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 7 });
  });
});

describe("tool calls the SDK cannot run", () => {
  test("an unknown tool and broken JSON are refused with a reason the model and person read", async () => {
    const model = mockModel(
      "openai.responses",
      [
        { type: "tool-call", toolCallId: "c1", toolName: "no-such-tool", input: "{}" },
        { type: "tool-call", toolCallId: "c2", toolName: "add", input: '{"a": 1, "b":' },
        ...toolCallStep().slice(-1),
      ],
      textStep("Sorry."),
    );
    const events: TurnEvent[] = [];
    const result = await runTurn(options(model, { events: (event) => events.push(event) }));
    expect(result.status).toBe("complete");
    expect(server.calls).toEqual([]);
    expect(events.filter((event) => event.type === "tool-output-denied")).toEqual([
      {
        type: "tool-output-denied",
        toolCallId: "c1",
        name: "no-such-tool",
        check: "unknown-tool",
        reason: unknownToolReason("no-such-tool"),
      },
      {
        type: "tool-output-denied",
        toolCallId: "c2",
        name: "add",
        check: "arguments",
        reason: ARGUMENTS_NOT_JSON_REASON,
      },
    ]);
    const expectedResults = [
      [
        "no-such-tool",
        { type: "error-text", value: `Tool call rejected. ${unknownToolReason("no-such-tool")}` },
      ],
      ["add", { type: "error-text", value: `Tool call rejected. ${ARGUMENTS_NOT_JSON_REASON}` }],
    ];
    expect(lastToolResults(model.doStreamCalls[1])).toEqual(expectedResults);
    // The stored history says the same, with arguments a provider accepts.
    const [assistant, tool] = result.responseMessages;
    expect(assistant).toMatchObject({
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "c1", input: {} },
        { type: "tool-call", toolCallId: "c2", input: {} },
      ],
    });
    expect(
      tool?.role === "tool" &&
        tool.content.map((part) => part.type === "tool-result" && part.output),
    ).toEqual(expectedResults.map(([, output]) => output));
  });
});

describe("Anthropic prompt caching", () => {
  const history = [
    { role: "user" as const, content: "first question" },
    { role: "assistant" as const, content: [{ type: "text" as const, text: "first answer" }] },
    { role: "user" as const, content: "second question" },
  ];
  const breakpoint = { anthropic: { cacheControl: { type: "ephemeral" } } };

  test("marks the last tool, the system prompt and the end of the stored history", async () => {
    const model = mockModel("anthropic.messages", textStep("ok"));
    await runTurn(
      options(model, { system: "Be brief.", messages: history, stablePrefixLength: 2 }),
    );
    const call = model.doStreamCalls[0];
    expect(call?.prompt[0]).toEqual({
      role: "system",
      content: "Be brief.",
      providerOptions: breakpoint,
    });
    expect(call?.prompt.map((message) => message.providerOptions)).toEqual([
      breakpoint,
      undefined,
      breakpoint,
      undefined,
    ]);
    const tools = functionTools(call?.tools);
    expect(tools.at(-1)?.providerOptions).toMatchObject(breakpoint);
    expect(
      tools.slice(0, -1).every((tool) => tool.providerOptions?.["anthropic"] === undefined),
    ).toBe(true);
    // Other provider options of the tool stay.
    expect(tools[0]?.providerOptions).toEqual({ offline: { title: "Server Time" } });
  });

  test("no stable prefix, no message marker; other providers get no markers", async () => {
    const anthropic = mockModel("anthropic.messages", textStep("ok"));
    await runTurn(options(anthropic, { messages: history }));
    expect(anthropic.doStreamCalls[0]?.prompt.map((message) => message.providerOptions)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const openai = mockModel("openai.responses", textStep("ok"));
    await runTurn(
      options(openai, { system: "Be brief.", messages: history, stablePrefixLength: 2 }),
    );
    const call = openai.doStreamCalls[0];
    expect(call?.prompt.every((message) => message.providerOptions === undefined)).toBe(true);
    const tools = functionTools(call?.tools);
    expect(tools.every((tool) => tool.providerOptions?.["anthropic"] === undefined)).toBe(true);
  });
});
