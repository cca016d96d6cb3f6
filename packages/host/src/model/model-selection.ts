// Which model a server talks to, from one string (MODEL, --model, the config file) or an AI SDK
// model object. Keys come from the providers' usual environment variables and are read here, at
// start, so a missing key is reported before anyone sends a message. A provider's SDK is imported
// only when its spec is chosen (see lazy-model.ts), so the offline default starts without them.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { lazyModel } from "./lazy-model";
import { createOfflineModel } from "./offline-model";
import {
  openAIResponsesOptions,
  openAIStoreFromEnvironment,
  withDefaultProviderOptions,
} from "./provider-options";

/** A model object the AI SDK accepts (not a gateway model id string). */
export type ModelObject = Exclude<LanguageModel, string>;

/** The environment variables model selection reads. */
export type ModelEnvironment = Readonly<Record<string, string | undefined>>;

/** Why a model spec could not be used. */
export type ModelSelectionErrorCode =
  "model-key-missing" | "model-spec-invalid" | "model-spec-unknown";

/**
 * The forms a model spec may take, listed in error messages. `openai:` is OpenAI's Responses
 * API, `openai-chat:` its Chat Completions API.
 */
const MODEL_SPEC_FORMS = [
  "offline",
  "anthropic:<model id>",
  "openai:<model id> (Responses API)",
  "openai-chat:<model id> (Chat Completions API)",
  "openai-compatible:<base URL>#<model id>",
] as const;

/** Choices of {@link resolveModel} beyond the spec and the environment. */
export interface ResolveModelOptions {
  /**
   * Whether OpenAI's Responses API keeps responses on its servers (`store`). Off by default, so
   * every request carries the whole conversation; OPENAI_STORE=true turns it on when this is
   * not given.
   */
  openAIStore?: boolean;
}

/** A model spec that names no usable model; the message says how to fix it. */
export class ModelSelectionError extends Error {
  override readonly name = "ModelSelectionError";

  constructor(
    readonly code: ModelSelectionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Turns a model spec into an AI SDK model. Strings: `"offline"` (also for `undefined` or `""`),
 * `anthropic:<id>` (key from ANTHROPIC_API_KEY, base URL from ANTHROPIC_BASE_URL if set),
 * `openai:<id>` for OpenAI's Responses API (OPENAI_API_KEY, OPENAI_BASE_URL; every request sends
 * `store: false` unless OPENAI_STORE=true or `options.openAIStore`), `openai-chat:<id>` for its
 * Chat Completions API (same variables), `openai-compatible:<baseURL>#<id>` for Ollama or vLLM
 * (optional key from OPENAI_COMPATIBLE_API_KEY; asks for usage in the stream). A model object
 * is returned as it is. Nothing is sent over the network here. A provider's model is returned at
 * once, while its SDK module loads in the background; each request waits for that load.
 *
 * @param spec - the spec, or a model object.
 * @param env - where keys are read; `process.env` by default.
 * @returns the model; the options it needs travel with each of its requests.
 * @throws {ModelSelectionError} `model-key-missing` naming the variable to set,
 *   `model-spec-invalid` for a malformed spec of a known provider, `model-spec-unknown` for any
 *   other prefix (the message lists the forms).
 */
export function resolveModel(
  spec: string | LanguageModel | undefined,
  env: ModelEnvironment = process.env,
  options: ResolveModelOptions = {},
): ModelObject {
  if (spec !== undefined && typeof spec !== "string") return spec;
  const text = (spec ?? "").trim();
  if (text === "" || text === "offline") return createOfflineModel();
  const colon = text.indexOf(":");
  const prefix = colon === -1 ? text : text.slice(0, colon);
  const rest = colon === -1 ? "" : text.slice(colon + 1).trim();
  switch (prefix) {
    case "anthropic": {
      const modelId = requireModelId(rest, "anthropic:<model id>", "anthropic:claude-sonnet-4-5");
      const apiKey = requireKey(env, "ANTHROPIC_API_KEY", text);
      const baseURL = env["ANTHROPIC_BASE_URL"];
      return lazyModel("anthropic.messages", modelId, async () => {
        const { createAnthropic } = await import("@ai-sdk/anthropic");
        return createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}) })(modelId);
      });
    }
    case "openai": {
      const modelId = requireModelId(rest, "openai:<model id>", "openai:gpt-4.1");
      const store = options.openAIStore ?? openAIStoreFromEnvironment(env["OPENAI_STORE"]);
      const settings = openAISettings(env, text);
      const model = lazyModel("openai.responses", modelId, async () =>
        (await openAIProvider(settings)).responses(modelId),
      );
      return withDefaultProviderOptions(model, openAIResponsesOptions(store));
    }
    case "openai-chat": {
      const modelId = requireModelId(rest, "openai-chat:<model id>", "openai-chat:gpt-4.1");
      const settings = openAISettings(env, text);
      return lazyModel("openai.chat", modelId, async () =>
        (await openAIProvider(settings)).chat(modelId),
      );
    }
    case "openai-compatible": {
      const { baseURL, modelId } = parseCompatible(rest);
      const apiKey = env["OPENAI_COMPATIBLE_API_KEY"];
      return lazyModel("openai-compatible.chat", modelId, async () => {
        const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
        const provider = createOpenAICompatible({
          name: "openai-compatible",
          baseURL,
          // Usage arrives in a last chunk only when asked for (stream_options.include_usage).
          includeUsage: true,
          ...(apiKey ? { apiKey } : {}),
        });
        return provider.chatModel(modelId);
      });
    }
    default:
      throw new ModelSelectionError(
        "model-spec-unknown",
        `The model "${describeModel(text)}" is not one this host knows. ` +
          `Write one of: ${MODEL_SPEC_FORMS.join(", ")}.`,
      );
  }
}

/**
 * A short name of a model for logs and the browser: `offline`, `anthropic:<id>`,
 * `openai-compatible:<url>#<id>` (without user, password or query of the URL), or
 * `<provider>:<model id>` of a model object. Never contains a key.
 *
 * @returns the description.
 */
export function describeModel(spec: string | LanguageModel | undefined): string {
  if (spec !== undefined && typeof spec !== "string") return `${spec.provider}:${spec.modelId}`;
  const text = (spec ?? "").trim();
  if (text === "") return "offline";
  if (!text.startsWith("openai-compatible:")) return text;
  const rest = text.slice("openai-compatible:".length);
  const hash = rest.lastIndexOf("#");
  const address = hash === -1 ? rest : rest.slice(0, hash);
  const modelId = hash === -1 ? "" : rest.slice(hash);
  return `openai-compatible:${safeAddress(address)}${modelId}`;
}

/** What an OpenAI provider is made with, read at start so a missing key is reported then. */
interface OpenAISettings {
  apiKey: string;
  baseURL?: string;
}

function openAISettings(env: ModelEnvironment, spec: string): OpenAISettings {
  const apiKey = requireKey(env, "OPENAI_API_KEY", spec);
  const baseURL = env["OPENAI_BASE_URL"];
  return { apiKey, ...(baseURL ? { baseURL } : {}) };
}

async function openAIProvider(settings: OpenAISettings): Promise<{
  responses(modelId: string): LanguageModelV3;
  chat(modelId: string): LanguageModelV3;
}> {
  const { createOpenAI } = await import("@ai-sdk/openai");
  return createOpenAI(settings);
}

function requireModelId(rest: string, form: string, example: string): string {
  if (rest !== "") return rest;
  throw new ModelSelectionError(
    "model-spec-invalid",
    `Name the model after the colon: ${form}, for example ${example}.`,
  );
}

function requireKey(env: ModelEnvironment, variable: string, spec: string): string {
  const key = env[variable];
  if (key !== undefined && key.trim() !== "") return key;
  throw new ModelSelectionError(
    "model-key-missing",
    `The model ${spec} needs an API key: set ${variable} in the server's environment, ` +
      `or choose the offline model (MODEL=offline).`,
  );
}

function parseCompatible(rest: string): { baseURL: string; modelId: string } {
  const usage =
    "Write openai-compatible:<base URL>#<model id>, for example " +
    "openai-compatible:http://127.0.0.1:11434/v1#llama3.2.";
  const hash = rest.lastIndexOf("#");
  const baseURL = hash === -1 ? rest : rest.slice(0, hash).trim();
  const modelId = hash === -1 ? "" : rest.slice(hash + 1).trim();
  if (modelId === "") {
    throw new ModelSelectionError("model-spec-invalid", `The model id is missing. ${usage}`);
  }
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new ModelSelectionError("model-spec-invalid", `The base URL is not a URL. ${usage}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ModelSelectionError(
      "model-spec-invalid",
      `The base URL must start with http:// or https://. ${usage}`,
    );
  }
  return { baseURL, modelId };
}

// A URL may carry credentials (user:password@ or ?key=); logs get only its origin and path.
function safeAddress(address: string): string {
  try {
    const url = new URL(address);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "<unreadable address>";
  }
}
