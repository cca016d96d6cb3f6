import { jsonSchema, stepCountIs, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, modelFor, partsOf, providerNames, textOf } from "../test/provider-models";
import { startProviderStandIn, type ProviderStandIn } from "./index";

const getTime = tool({
  description: "Tells the time in a zone.",
  inputSchema: jsonSchema<{ zone: string }>({
    type: "object",
    properties: { zone: { type: "string" } },
    required: ["zone"],
  }),
  execute: async ({ zone }) => ({ time: "12:00", zone }),
});

let standIn: ProviderStandIn;
beforeEach(async () => {
  standIn = await startProviderStandIn();
});
afterEach(async () => {
  await standIn.close();
});

describe.each(providerNames)("through the AI SDK %s adapter", (provider) => {
  it("streams text in several pieces and reports usage", async () => {
    standIn.respondWith([{ text: "The quick brown fox jumps over the lazy dog." }]);
    const result = streamText({
      model: modelFor(provider, standIn),
      prompt: "Say something.",
      maxRetries: 0,
    });
    const run = await collect(result.fullStream);

    expect(run.thrown).toBeUndefined();
    expect(partsOf(run, "text-delta").length).toBeGreaterThan(1);
    expect(textOf(run)).toBe("The quick brown fox jumps over the lazy dog.");
    const [finish] = partsOf(run, "finish");
    expect(finish?.finishReason).toBe("stop");
    expect(finish?.totalUsage.inputTokens).toBeGreaterThan(0);
    expect(finish?.totalUsage.outputTokens).toBe(Math.ceil(44 / 4));
  });

  it("streams a tool call's arguments in pieces, then answers after the tool result", async () => {
    const result = streamText({
      model: modelFor(provider, standIn),
      prompt: 'Please call get_time {"zone":"UTC"}',
      tools: { get_time: getTime },
      stopWhen: stepCountIs(2),
      maxRetries: 0,
    });
    const run = await collect(result.fullStream);

    expect(run.thrown).toBeUndefined();
    const deltas = partsOf(run, "tool-input-delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((part) => part.delta).join("")).toBe('{"zone":"UTC"}');
    expect(partsOf(run, "tool-call").map((part) => part.input)).toEqual([{ zone: "UTC" }]);
    expect(partsOf(run, "tool-result").map((part) => part.output)).toEqual([
      { time: "12:00", zone: "UTC" },
    ]);
    expect(textOf(run)).toBe('The tool get_time returned: {"time":"12:00","zone":"UTC"}');
    expect(partsOf(run, "finish-step").map((part) => part.finishReason)).toEqual([
      "tool-calls",
      "stop",
    ]);
    expect(standIn.requests.map((request) => request.view?.lastInputIsToolResult)).toEqual([
      false,
      true,
    ]);
    expect(standIn.requests.map((request) => request.view?.toolNames)).toEqual([
      ["get_time"],
      ["get_time"],
    ]);
  });

  it("refuses a wrong key with 401, and the AI SDK reports an APICallError", async () => {
    const result = streamText({
      model: modelFor(provider, standIn, "wrong-key-0123456789"),
      prompt: "Hello",
      maxRetries: 0,
      onError: () => {},
    });
    const run = await collect(result.fullStream);

    const [error] = partsOf(run, "error");
    expect(error?.error).toMatchObject({ name: "AI_APICallError", statusCode: 401 });
    expect(partsOf(run, "finish")).toEqual([]);
    expect(standIn.requests[0]?.auth).toBe("invalid");
    expect(JSON.stringify(standIn.requests)).not.toContain("wrong-key-0123456789");
  });

  it("refuses a tool name the APIs do not take with 400", async () => {
    const result = streamText({
      model: modelFor(provider, standIn),
      prompt: "Hello",
      tools: { "basic.get-time": getTime },
      maxRetries: 0,
      onError: () => {},
    });
    const run = await collect(result.fullStream);

    const [error] = partsOf(run, "error");
    expect(error?.error).toMatchObject({ name: "AI_APICallError", statusCode: 400 });
    expect((error?.error as Error).message).toMatch(
      /string does not match pattern|should match pattern/,
    );
  });
});
