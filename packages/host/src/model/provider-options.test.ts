// Provider options that ride on the model: defaults reach every request, a request's own win.
import { describe, expect, test } from "vitest";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import { openAIStoreFromEnvironment, withDefaultProviderOptions } from "./provider-options";
import { textStep } from "../testing/model-fixtures";

describe("withDefaultProviderOptions", () => {
  test("adds the defaults to each request; options the request sets win, key by key", async () => {
    const inner = new MockLanguageModelV3({
      doStream: () => Promise.resolve({ stream: convertArrayToReadableStream(textStep("hi")) }),
    });
    const model = withDefaultProviderOptions(inner, { openai: { store: false, user: "host" } });
    await model.doStream({ prompt: [] });
    await model.doStream({
      prompt: [],
      providerOptions: { openai: { store: true }, anthropic: { sendReasoning: false } },
    });
    expect(inner.doStreamCalls.map((call) => call.providerOptions)).toEqual([
      { openai: { store: false, user: "host" } },
      { openai: { store: true, user: "host" }, anthropic: { sendReasoning: false } },
    ]);
  });
});

describe("openAIStoreFromEnvironment", () => {
  test.each([
    [undefined, false],
    ["", false],
    ["false", false],
    ["no", false],
    ["true", true],
    [" TRUE ", true],
    ["1", true],
  ])("OPENAI_STORE=%j stores: %s", (value, stored) => {
    expect(openAIStoreFromEnvironment(value)).toBe(stored);
  });
});
