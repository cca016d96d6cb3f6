// Provider options that travel with every request of a model, set where the model is chosen so
// that no caller can forget them: OpenAI's Responses API gets `store: false` unless the operator
// asked for stored responses. The AI SDK reads `store` per request, not from the provider, so it
// rides on the model as a middleware.
import { wrapLanguageModel } from "ai";
import type { LanguageModelV3, SharedV3ProviderOptions } from "@ai-sdk/provider";

/**
 * Wraps a model so each request carries `defaults` under its provider options; options a request
 * sets itself win, key by key within each provider.
 *
 * @returns a model with the same provider and id.
 */
export function withDefaultProviderOptions(
  model: LanguageModelV3,
  defaults: SharedV3ProviderOptions,
): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      transformParams: ({ params }) =>
        Promise.resolve({
          ...params,
          providerOptions: mergeProviderOptions(defaults, params.providerOptions),
        }),
    },
  });
}

/**
 * The Responses API options of the host: `store: false`, so no response is kept on OpenAI's
 * servers and every request sends the whole conversation (full items, never `item_reference`;
 * for reasoning models the SDK then adds `include: ["reasoning.encrypted_content"]`, so
 * reasoning travels with the tool rounds). `store: true` keeps OpenAI's default.
 *
 * @returns the provider options for `openai`.
 */
export function openAIResponsesOptions(store: boolean): SharedV3ProviderOptions {
  return { openai: { store } };
}

/**
 * Reads OPENAI_STORE: "true" or "1" keeps responses on OpenAI's servers; anything else (or
 * nothing) does not.
 *
 * @returns whether to store responses.
 */
export function openAIStoreFromEnvironment(value: string | undefined): boolean {
  const text = value?.trim().toLowerCase();
  return text === "true" || text === "1";
}

function mergeProviderOptions(
  defaults: SharedV3ProviderOptions,
  options: SharedV3ProviderOptions | undefined,
): SharedV3ProviderOptions {
  const merged: SharedV3ProviderOptions = { ...options };
  for (const [provider, values] of Object.entries(defaults)) {
    merged[provider] = { ...values, ...options?.[provider] };
  }
  return merged;
}
