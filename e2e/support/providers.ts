// The model providers as the end-to-end specs reach them: a provider stand-in (packages/testing)
// runs in the test process on 127.0.0.1, and the host child talks to it through the provider's
// own client (AI SDK), given the stand-in's URL and key in its environment. The stand-in model
// calls a tool when the person writes `call <tool> <json>`; a reply can be held until the test
// lets it go, so a card is open and loaded before the reply ends (what real providers do).
import {
  defaultResponder,
  type ProviderApiName,
  type ProviderStandIn,
  type RequestView,
  type ResponderResult,
} from "@mcp-chat-host/testing";
import { startHost, type RunningHost } from "./host";

/** One provider as the host is configured for it. */
export interface ProviderCase {
  /** A short name for test titles: the model spec's prefix. */
  readonly name: "openai" | "anthropic" | "openai-chat" | "openai-compatible";
  /** The HTTP API the stand-in sees its requests on. */
  readonly api: ProviderApiName;
  /** The person-facing name the host's failure messages start with. */
  readonly subject: string;
  /** The model spec the host is started with. */
  model(standIn: ProviderStandIn): string;
  /** The environment that points the host's client at the stand-in. */
  env(standIn: ProviderStandIn): Record<string, string>;
}

/** OpenAI's Responses API (`openai:`). */
export const openaiResponses: ProviderCase = {
  name: "openai",
  api: "responses",
  subject: "OpenAI",
  model: () => "openai:gpt-4.1",
  env: (standIn) => ({ OPENAI_API_KEY: standIn.apiKey, OPENAI_BASE_URL: standIn.openaiBaseURL }),
};

/** Anthropic's Messages API (`anthropic:`). */
export const anthropicMessages: ProviderCase = {
  name: "anthropic",
  api: "messages",
  subject: "Anthropic",
  model: () => "anthropic:claude-sonnet-4-5",
  env: (standIn) => ({
    ANTHROPIC_API_KEY: standIn.apiKey,
    ANTHROPIC_BASE_URL: standIn.anthropicBaseURL,
  }),
};

/** OpenAI's Chat Completions API (`openai-chat:`). */
export const openaiChat: ProviderCase = {
  name: "openai-chat",
  api: "chat-completions",
  subject: "OpenAI",
  model: () => "openai-chat:gpt-4.1",
  env: (standIn) => ({ OPENAI_API_KEY: standIn.apiKey, OPENAI_BASE_URL: standIn.openaiBaseURL }),
};

/** A server that speaks Chat Completions, such as Ollama or vLLM (`openai-compatible:`). */
export const openaiCompatible: ProviderCase = {
  name: "openai-compatible",
  api: "chat-completions",
  subject: "The model server",
  model: (standIn) => `openai-compatible:${standIn.openaiBaseURL}#local-model`,
  env: (standIn) => ({ OPENAI_COMPATIBLE_API_KEY: standIn.apiKey }),
};

/**
 * Starts the e2e host with the model of `provider`, pointed at the stand-in.
 *
 * @param standIn - the running stand-in.
 * @param provider - which provider client the host uses.
 * @param options - npm servers to add, and the stall timeout in seconds.
 * @returns the running host.
 */
export function startProviderHost(
  standIn: ProviderStandIn,
  provider: ProviderCase,
  options: { servers?: string[]; modelStallTimeout?: number } = {},
): Promise<RunningHost> {
  return startHost({
    model: provider.model(standIn),
    env: provider.env(standIn),
    ...(options.servers === undefined ? {} : { servers: options.servers }),
    ...(options.modelStallTimeout === undefined
      ? {}
      : { modelStallTimeout: options.modelStallTimeout }),
  });
}

/**
 * The stand-in model's replies for the specs: the default responder's (`call <tool> <json>`
 * calls the tool, a tool result is summed up, anything else is echoed), with a sentence of text
 * before each tool call, as real models often write; and the answer after a tool result can be
 * held until the test releases it.
 */
export class ProviderReplies {
  #hold: { arrived: () => void; released: Promise<void> } | null = null;
  readonly #releases = new Set<() => void>();

  /** The responder to give `standIn.respondWith`. */
  readonly responder = async (view: RequestView): Promise<ResponderResult> => {
    const hold = this.#hold;
    if (hold !== null && view.lastInputIsToolResult) {
      this.#hold = null;
      hold.arrived();
      await hold.released;
    }
    const reply = defaultResponder(view);
    if (reply.toolCalls === undefined || reply.toolCalls.length === 0) return reply;
    return { ...reply, text: "Let me open that for you." };
  };

  /**
   * Holds the next answer that follows a tool result until `release` is called.
   *
   * @returns `arrived`, which resolves when the held request reached the stand-in, and `release`.
   */
  holdAnswerAfterTool(): { arrived: Promise<void>; release: () => void } {
    let arrived = (): void => {};
    let release = (): void => {};
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.#hold = { arrived, released };
    this.#releases.add(release);
    return {
      arrived: arrival,
      release: () => {
        this.#releases.delete(release);
        release();
      },
    };
  }

  /** Lets any held answer go (for the end of a test that failed while holding). */
  releaseAll(): void {
    this.#hold = null;
    for (const release of this.#releases) release();
    this.#releases.clear();
  }
}
