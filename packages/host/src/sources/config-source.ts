import { McpClientSession } from "@mcp-chat-host/connection";
import type { McpClientSessionOptions, McpServerConfig } from "@mcp-chat-host/connection";
import { errorMessage } from "@mcp-chat-host/protocol";
import { ConnectionSource } from "./connection-source";
import { SourceError } from "./source-error";
import type { Source, SourceFactory } from "./source";

/**
 * A source factory for one entry of the `mcpServers` configuration: each {@link SourceFactory.open}
 * starts (stdio) or reaches (Streamable HTTP) the server in a new `McpClientSession` and wraps it
 * in a {@link ConnectionSource}. Closing the source ends the session (and a stdio server's process).
 *
 * @param entry - one validated configuration entry; its name is the source key.
 * @param options - startup and request deadlines, stderr and error listeners.
 * @returns the factory; nothing is started until `open()`.
 */
export function configSourceFactory(
  entry: McpServerConfig,
  options: McpClientSessionOptions = {},
): SourceFactory {
  return {
    key: entry.name,
    kind: "connection",
    async open(): Promise<Source> {
      let session: McpClientSession;
      try {
        session = await McpClientSession.open(entry, options);
      } catch (error) {
        const message = errorMessage(error);
        throw new SourceError("unavailable", message, { cause: error });
      }
      return new ConnectionSource(session);
    },
  };
}
