// Providers are only constructed here, never called: nothing goes over the network.
import { describe, expect, test } from "vitest";
import { MockLanguageModelV3 } from "ai/test";
import { ModelSelectionError, describeModel, resolveModel } from "./model-selection";

function selectionError(run: () => unknown): ModelSelectionError {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelSelectionError) return error;
    throw error;
  }
  throw new Error("expected a ModelSelectionError");
}

describe("resolveModel", () => {
  test("offline is the default when nothing is configured", () => {
    for (const spec of [undefined, "", "  ", "offline"]) {
      const model = resolveModel(spec, {});
      expect([model.provider, model.modelId]).toEqual(["offline", "offline"]);
    }
  });

  test("anthropic:<id> builds an Anthropic model with the key from ANTHROPIC_API_KEY", () => {
    const model = resolveModel("anthropic:claude-sonnet-4-5", {
      ANTHROPIC_API_KEY: "sk-test",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9/v1",
    });
    expect(model.provider).toBe("anthropic.messages");
    expect(model.modelId).toBe("claude-sonnet-4-5");
  });

  test("openai:<id> is the Responses API, with the key from OPENAI_API_KEY", () => {
    const model = resolveModel("openai:gpt-4.1", { OPENAI_API_KEY: "sk-test" });
    expect(model.provider).toBe("openai.responses");
    expect(model.modelId).toBe("gpt-4.1");
  });

  test("openai-chat:<id> is the Chat Completions API, with the same key", () => {
    const model = resolveModel("openai-chat:gpt-4.1", { OPENAI_API_KEY: "sk-test" });
    expect(model.provider).toBe("openai.chat");
    expect(model.modelId).toBe("gpt-4.1");
    const error = selectionError(() => resolveModel("openai-chat:gpt-4.1", {}));
    expect(error.code).toBe("model-key-missing");
    expect(error.message).toContain("set OPENAI_API_KEY");
    expect(selectionError(() => resolveModel("openai-chat:", {})).code).toBe("model-spec-invalid");
  });

  test("openai-compatible:<baseURL>#<id> works without a key (Ollama, vLLM)", () => {
    const model = resolveModel("openai-compatible:http://127.0.0.1:11434/v1#llama3.2", {});
    expect(model.provider).toBe("openai-compatible.chat");
    expect(model.modelId).toBe("llama3.2");
  });

  test("a missing key is an error naming the variable", () => {
    const anthropic = selectionError(() => resolveModel("anthropic:claude-sonnet-4-5", {}));
    expect(anthropic.code).toBe("model-key-missing");
    expect(anthropic.message).toContain("set ANTHROPIC_API_KEY");
    const openai = selectionError(() => resolveModel("openai:gpt-4.1", { OPENAI_API_KEY: " " }));
    expect(openai.code).toBe("model-key-missing");
    expect(openai.message).toContain("set OPENAI_API_KEY");
  });

  test("an unknown prefix is an error listing the forms", () => {
    const error = selectionError(() => resolveModel("gemini:pro", {}));
    expect(error.code).toBe("model-spec-unknown");
    expect(error.message).toBe(
      'The model "gemini:pro" is not one this host knows. Write one of: offline, ' +
        "anthropic:<model id>, openai:<model id> (Responses API), " +
        "openai-chat:<model id> (Chat Completions API), openai-compatible:<base URL>#<model id>.",
    );
  });

  test("malformed specs of known providers say how to write them", () => {
    const cases = [
      "anthropic:",
      "openai",
      "openai-compatible:http://127.0.0.1:11434/v1",
      "openai-compatible:not a url#llama",
      "openai-compatible:ftp://llm.example/v1#llama",
    ];
    for (const spec of cases) {
      const error = selectionError(() => resolveModel(spec, { ANTHROPIC_API_KEY: "k" }));
      expect(error.code, spec).toBe("model-spec-invalid");
    }
  });

  test("a provider's model carries its SDK's name, id and URL support once the SDK loaded", async () => {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    const { createOpenAI } = await import("@ai-sdk/openai");
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    const keys = { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" };
    const compatible = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: "http://127.0.0.1:11434/v1",
    });
    const pairs = [
      [
        resolveModel("anthropic:claude-sonnet-4-5", keys),
        createAnthropic({ apiKey: "k" })("claude-sonnet-4-5"),
      ],
      [resolveModel("openai:gpt-4.1", keys), createOpenAI({ apiKey: "k" }).responses("gpt-4.1")],
      [resolveModel("openai-chat:gpt-4.1", keys), createOpenAI({ apiKey: "k" }).chat("gpt-4.1")],
      [
        resolveModel("openai-compatible:http://127.0.0.1:11434/v1#llama3.2", {}),
        compatible.chatModel("llama3.2"),
      ],
    ] as const;
    for (const [chosen, direct] of pairs) {
      expect([chosen.provider, chosen.modelId]).toEqual([direct.provider, direct.modelId]);
      expect(await chosen.supportedUrls).toEqual(await direct.supportedUrls);
    }
  });

  test("a model object passes through untouched", () => {
    const model = new MockLanguageModelV3();
    expect(resolveModel(model, {})).toBe(model);
  });
});

describe("describeModel", () => {
  test("names the model without keys or credentials", () => {
    expect(describeModel(undefined)).toBe("offline");
    expect(describeModel("anthropic:claude-sonnet-4-5")).toBe("anthropic:claude-sonnet-4-5");
    expect(
      describeModel("openai-compatible:https://user:secret@llm.example/v1?api_key=secret#llama"),
    ).toBe("openai-compatible:https://llm.example/v1#llama");
    expect(describeModel(new MockLanguageModelV3({ provider: "mock", modelId: "m1" }))).toBe(
      "mock:m1",
    );
  });
});
