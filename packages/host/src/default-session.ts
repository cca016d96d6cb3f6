import type { McpConfig } from "@mcp-chat-host/connection";
import { policies } from "./gate/policies";
import { mcpChatHost } from "./mcp-chat-host";
import type { SessionFunction } from "./session-registry";
import type { ChatHostOptions } from "./session/chat";

/** The default session: one chat with every configured server, using the config's `host` section. */
export function defaultSession(config: McpConfig | null): SessionFunction {
  return (session) => {
    const chat = session.chat();
    const names = Object.keys(config?.servers ?? {});
    if (names.length > 0) mcpChatHost(chat, names, hostOptionsFromConfig(config));
  };
}

/**
 * The chat host options in a config file's `host` section: `messages`, `context`, and `onAppCall`
 * rules (`{ default, rules }`, see `policies.rules`). Without `onAppCall` rules, the annotation
 * policy applies (read-only allowed; destructive, open-world or unannotated asks the person).
 *
 * @throws {PolicyConfigError} for malformed rules.
 */
export function hostOptionsFromConfig(config: McpConfig | null): ChatHostOptions {
  const section = (config?.host ?? {}) as Record<string, unknown>;
  const options: ChatHostOptions = {
    onAppCall:
      section["onAppCall"] === undefined
        ? policies.annotations()
        : policies.rules(section["onAppCall"] as never),
  };
  if (section["messages"] !== undefined)
    options.messages = section["messages"] as ChatHostOptions["messages"] & string;
  if (section["context"] !== undefined) options.context = section["context"] === true;
  return options;
}
