import { appMessageModes } from "../app-messages/app-message";
import { HostError } from "../host-error";
import type { SessionContext } from "../session/session-context";
import type { SourceSpec } from "../session/session-sources";
import { chatAppContext } from "./chat-app-context";
import type { Chat, ChatHostHandle, ChatHostOptions } from "../session/chat";
import type { ChatToolLists } from "./chat-tools";

/**
 * Attaches a chat host to a chat of the session (the work of `mcpChatHost()`): checks the
 * options, registers the sources and the chat's `onAppCall` hook, and lists the chat's tools in
 * the background. A source that fails to list is reported when the chat is used; the session
 * still starts.
 *
 * @param context - the session's state.
 * @param tools - the session's tool lists (they list the chat's tools).
 * @param whenListed - receives the promise of the listing, so the session's hello can wait for it.
 * @throws {HostError} `bad_request` for a chat of another session, a chat that already has a
 *   host, a source name used twice, or an invalid option.
 */
export function attachChatHost(
  context: SessionContext,
  tools: ChatToolLists,
  whenListed: (listed: Promise<void>) => void,
  chat: Chat,
  sources: SourceSpec[],
  options: ChatHostOptions,
): ChatHostHandle {
  if (context.chats.get(chat.key) !== chat) {
    throw new HostError("bad_request", "`chat` must be a chat made with `session.chat()`.");
  }
  if (chat.host)
    throw new HostError("bad_request", `The chat "${chat.key}" already has a chat host.`);
  const messages = options.messages ?? "compose";
  if (!appMessageModes.includes(messages)) {
    throw new HostError(
      "bad_request",
      '`messages` must be one of "compose", "submit" or "ignore".',
    );
  }
  const onAppCall = options.onAppCall ?? null;
  if (onAppCall !== null && typeof onAppCall !== "function") {
    throw new HostError("bad_request", "`onAppCall` must be a function or `null`.");
  }
  const keys = sources.map((spec) => context.sources.keyOf(spec));
  const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
  if (repeated !== undefined) {
    throw new HostError(
      "bad_request",
      `Each source needs its own name; "${repeated}" is used twice.`,
    );
  }
  for (const spec of sources) context.sources.register(spec);
  if (onAppCall) for (const key of keys) context.hooks.add(key, onAppCall);
  chat.host = {
    sources,
    sourceKeys: keys,
    context: options.context ?? true,
    messages,
    onAppCall,
    title: options.title,
  };
  const ready = tools.list(chat).then(() => undefined);
  whenListed(
    ready.catch((error: unknown) =>
      context.logger.warn({ err: error, chat: chat.key }, "a source could not list its tools"),
    ),
  );
  return {
    key: chat.key,
    context: () => chatAppContext(context.cards, [...context.chats.keys()], chat.key),
    get tools() {
      return tools.toolsOf(chat.key);
    },
    ready,
  };
}
