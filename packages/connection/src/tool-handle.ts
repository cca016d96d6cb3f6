// What every tool handle of this package shares, and the one builder of it: an owned connection's
// handle (`McpConnection.tools()`) and a shared connection's (`toolsMcp`) differ only in who may
// call and when the handle stops being current.
import type { Tool, ToolAnnotations } from "@modelcontextprotocol/client";

/** The fields and the currency check of every tool handle, whichever connection it is bound to. */
export interface ToolHandleBase {
  name: string;
  title: string | undefined;
  description: string | undefined;
  inputSchema: Tool["inputSchema"];
  /** The server's annotations, kept for permission checks (see `checkToolPermission`). */
  annotations: ToolAnnotations | undefined;
  /** The tool's `_meta` (MCP Apps keep `ui.resourceUri` and `ui.visibility` there). */
  meta: Record<string, unknown> | undefined;
  /** The whole definition the server listed. */
  definition: Tool;
  source: {
    type: "mcp";
    server: string;
    tool: string;
    operation: "tools/call";
    connectionId: string;
  };
  /** Whether the handle may still be called; local, nothing is sent. */
  isCurrent(): boolean;
}

/**
 * Builds a frozen tool handle: the base fields read from the server's definition, plus what the
 * connection kind adds (its `call`, and for an owned connection its `owner`).
 *
 * @param definition - the tool as the server listed it.
 * @param connection - the server's name and the connection's id, for the handle's `source`.
 * @param rest - the connection's own members, `isCurrent` included.
 * @returns the handle, frozen (its `source` too).
 */
export function toolHandle<Handle extends ToolHandleBase>(
  definition: Tool,
  connection: { server: string; connectionId: string },
  rest: Omit<Handle, Exclude<keyof ToolHandleBase, "isCurrent">>,
): Readonly<Handle> {
  const base = {
    name: definition.name,
    title: definition.title ?? definition.annotations?.title,
    description: definition.description,
    inputSchema: definition.inputSchema,
    annotations: definition.annotations,
    meta: definition._meta,
    definition,
    source: Object.freeze({
      type: "mcp" as const,
      server: connection.server,
      tool: definition.name,
      operation: "tools/call" as const,
      connectionId: connection.connectionId,
    }),
  };
  return Object.freeze({ ...base, ...rest } as Handle);
}
