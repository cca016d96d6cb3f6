import type { Logger } from "pino";
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
 * @param logger - told once, here, of each example left out for a configured server's name.
 */
export function defaultSessionSetup(
  config: McpConfig | null,
  examples: readonly SourceSpec[],
  logger?: Pick<Logger, "warn">,
): SessionFunction {
  const configured = Object.keys(config?.servers ?? {});
  const options = hostOptionsFromConfig(config);
  const offered = examplesBesides(examples, configured, logger);
  return (session) => {
    const chat = session.chat({ system: defaultSystemPrompt, title: "Chat" });
    const sources = [...offered, ...configured];
    if (sources.length > 0) mcpChatHost(chat, sources, options);
  };
}

/**
 * The example apps a session offers besides the configured servers: a configured server named
 * like an example (`notes`) wins, and the example is left out, said once at start. Two sources of
 * one name would otherwise make every session fail.
 *
 * @returns the examples whose name no configured server takes.
 */
function examplesBesides(
  examples: readonly SourceSpec[],
  configured: readonly string[],
  logger?: Pick<Logger, "warn">,
): SourceSpec[] {
  return examples.filter((example) => {
    const name = typeof example === "string" ? example : example.key;
    if (!configured.includes(name)) return true;
    logger?.warn(
      { example: name },
      `The example app "${name}" is not offered: the config names a server "${name}", which is offered instead.`,
    );
    return false;
  });
}
