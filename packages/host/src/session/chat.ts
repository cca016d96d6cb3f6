import type { ToolPermissions as ConnectionToolPermissions } from "@mcp-chat-host/connection";
import type { ToolRequest as ModelToolRequest, ToolRequestHook } from "../model/tool-checks";
import type { OnAppCall } from "../gate/app-call-gate";
import type { SourceSpec } from "./session-sources";

/**
 * What a chat does with a card's `ui/message`: `compose` puts the text in
 * the chat's input box for the person to edit and send, `submit` sends it as the person's next
 * message, `ignore` drops it.
 */
export type AppMessageMode = "compose" | "submit" | "ignore";

/**
 * What a chat lets the model's own tool calls do: `web` (tools that reach outside, open-world)
 * and `write` (tools that change things, not read-only); both allowed by default.
 */
export type ToolPermissions = ConnectionToolPermissions;

/** A model tool call about to run, as `onToolRequest` sees it: the call, and the chat asking. */
export type ToolRequest = ModelToolRequest & { chat: string };

/**
 * A check on the model's own tool calls, before they run. Return `true` or nothing to let the
 * call run; `false` or a string to refuse it (the model is told "Tool call rejected." with the
 * string). It may return a promise.
 */
export type OnToolRequest = (request: ToolRequest) => ReturnType<ToolRequestHook>;

/** Options of `session.chat()`. */
export interface ChatOptions {
  /** The chat's key; default `chat-<n>`. A key already used is made unique (`support.1`). */
  id?: string;
  /** Shown above the chat when the session has several. Default: the key. */
  title?: string;
  /** The system prompt. */
  system?: string;
  /** What the model's tool calls may do. Default `{ web: true, write: true }`. */
  permissions?: Partial<ToolPermissions>;
  /** Most model steps (model calls) in one reply. Default 8. */
  maxSteps?: number;
  /** Most tool calls in one reply; past it the model is told the budget is spent. Default 16. */
  maxToolCalls?: number;
  /** Checks each model tool call before it runs. */
  onToolRequest?: OnToolRequest;
}

/** Options of `mcpChatHost()`: what the chat does with its cards' context, messages and calls. */
export interface ChatHostOptions {
  /** Tell the model what the chat's open cards show (default true). With false, nothing is injected and `host.context()` still returns the text. */
  context?: boolean;
  /** What to do with messages apps ask to post (default "compose"). */
  messages?: AppMessageMode;
  /** Checks each tool call the pages of this chat's cards make. */
  onAppCall?: OnAppCall | null;
  /** The title of the cards this chat's tools open (default: the tool's title). */
  title?: string;
}

/** What `mcpChatHost()` returns. */
export interface ChatHostHandle {
  /** The chat's key. */
  readonly key: string;
  /** The text the model is (or would be) given about the chat's open cards, or null. */
  context(): string | null;
  /**
   * The tools given to the model, once the sources have listed them (see `ready`): `name` is the
   * name the model is given (unique in the chat, accepted by every provider), `tool` the tool's
   * own name on its source.
   */
  readonly tools: readonly { name: string; tool: string; source: string; description: string }[];
  /** Resolves when every source has listed its tools. */
  readonly ready: Promise<void>;
}

/** The internal record of a chat's host, kept by the session. */
export interface ChatHostRecord {
  sources: SourceSpec[];
  sourceKeys: string[];
  context: boolean;
  messages: AppMessageMode;
  onAppCall: OnAppCall | null;
  title: string | undefined;
}

/**
 * Attaches sources to a chat, in the session that made it (the work of `mcpChatHost()`).
 *
 * @internal
 */
export type ChatHostAttacher = (
  chat: Chat,
  sources: SourceSpec[],
  options: ChatHostOptions,
) => ChatHostHandle;

let attacherOf: (value: unknown) => ChatHostAttacher | undefined;

/**
 * One chat of a session: its key, system prompt and limits, and the chat host attached to it by
 * `mcpChatHost()`. Made with `session.chat()`, which gives it the function that attaches sources
 * in that session, so `mcpChatHost(chat, ...)` needs nothing but the chat.
 */
export class Chat {
  /** @internal the chat host, set once by `mcpChatHost()`. */
  host: ChatHostRecord | null = null;
  readonly #attach: ChatHostAttacher;

  static {
    attacherOf = (value) =>
      typeof value === "object" && value !== null && #attach in value ? value.#attach : undefined;
  }

  /** @internal use `session.chat()`. */
  constructor(
    /** The chat's unique key in its session. */
    readonly key: string,
    /** The chat's options, with defaults filled in. */
    readonly options: Readonly<
      Required<Pick<ChatOptions, "title" | "maxSteps" | "maxToolCalls">> & {
        system: string | undefined;
        permissions: ToolPermissions;
        onToolRequest: OnToolRequest | undefined;
      }
    >,
    /** @internal the session that owns the chat. */
    readonly sessionId: string,
    /** @internal attaches sources in the session that owns the chat. */
    attach: ChatHostAttacher,
  ) {
    this.#attach = attach;
  }
}

/**
 * The function that attaches sources to a chat made by `session.chat()`.
 *
 * @returns undefined for anything else (a look-alike object is not a chat).
 */
export function chatHostAttacherOf(value: unknown): ChatHostAttacher | undefined {
  return attacherOf(value);
}

/**
 * Fills in a chat's option defaults and checks them.
 *
 * @throws {TypeError} when a limit is not a positive whole number or `onToolRequest` is not a function.
 */
export function chatOptionsWithDefaults(key: string, options: ChatOptions): Chat["options"] {
  const positive = (name: string, value: number | undefined, fallback: number) => {
    const result = value ?? fallback;
    if (!Number.isInteger(result) || result < 1) {
      throw new TypeError(`\`${name}\` must be a positive whole number.`);
    }
    return result;
  };
  if (options.onToolRequest !== undefined && typeof options.onToolRequest !== "function") {
    throw new TypeError("`onToolRequest` must be a function.");
  }
  return {
    title: options.title ?? key,
    system: options.system,
    maxSteps: positive("maxSteps", options.maxSteps, 8),
    maxToolCalls: positive("maxToolCalls", options.maxToolCalls, 16),
    permissions: { web: true, write: true, ...options.permissions },
    onToolRequest: options.onToolRequest,
  };
}
