import {
  hostOptionsFromConfig,
  mcpChatHost,
  type McpConfig,
  type SessionFunction,
  type SourceSpec,
} from "@mcp-chat-host/host";

/** The system prompt of the default chat. */
export const defaultSystemPrompt =
  "You are a helpful assistant in a chat that can show apps. When a tool opens an app, the person sees it live in the conversation; say briefly what it shows.";

/**
 * The default session: one chat with the example apps (unless turned off) and every configured
 * server, with the config file's `host` options (messages, context, onAppCall rules; without rules,
 * the annotation policy: read-only allowed, destructive or open-world asks the person).
 *
 * @param config - the parsed config file, or null.
 * @param examples - the example apps (made once; each session opens its own server state).
 */
export function defaultSessionSetup(
  config: McpConfig | null,
  examples: readonly SourceSpec[],
): SessionFunction {
  const configured = Object.keys(config?.servers ?? {});
  const options = hostOptionsFromConfig(config);
  return (session) => {
    const chat = session.chat({ system: defaultSystemPrompt, title: "Chat" });
    const sources = [...examples, ...configured];
    if (sources.length > 0) mcpChatHost(chat, sources, options);
  };
}
