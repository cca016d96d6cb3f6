// A model whose provider module is loaded only once that provider is chosen: the offline model,
// the default, never reads the Anthropic or OpenAI SDKs, so a server starts without them.
import type { LanguageModelV3 } from "@ai-sdk/provider";

/**
 * Wraps the loading of a provider's model in a model object that exists at once. The load starts
 * here, in the background; every request waits for it, and a failed load fails each request with
 * its error. `provider` and `modelId` must be the ones the loaded model reports.
 *
 * @param provider - the loaded model's provider name (such as `anthropic.messages`).
 * @param modelId - its model id.
 * @param load - imports the provider's module and builds the model.
 * @returns a model that hands each call to the loaded one.
 */
export function lazyModel(
  provider: string,
  modelId: string,
  load: () => Promise<LanguageModelV3>,
): LanguageModelV3 {
  const loading = load();
  // A load that fails is reported by the requests that wait for it, not as an unhandled rejection;
  // until then (or after it failed) no URL is passed to the provider as it is.
  loading.catch(() => undefined);
  const supportedUrls = loading.then(
    (model) => model.supportedUrls,
    () => ({}),
  );
  return {
    specificationVersion: "v3",
    provider,
    modelId,
    supportedUrls,
    doGenerate: async (options) => (await loading).doGenerate(options),
    doStream: async (options) => (await loading).doStream(options),
  };
}
