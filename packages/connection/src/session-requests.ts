// The requests an McpClientSession offers, each one call of its `perform`: the catalogue pages,
// tool calls, resource reads, prompts and `ping`.
import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  RequestMethod,
  ResultTypeMap,
} from "@modelcontextprotocol/client";
import type { McpRequestOptions } from "./mcp-client-session-types";

/**
 * The MCP requests of a session, built on one `perform` that sends a request and tracks it
 * (deadline, cancellation, progress, error mapping). {@link McpClientSession} extends it.
 */
export abstract class McpSessionRequests {
  /**
   * Sends one request and tracks it until it is answered.
   *
   * @param method - the MCP method.
   * @param params - its params, or undefined to send none.
   * @param options - signal, deadline and progress of this request.
   * @returns the result.
   */
  protected abstract perform<Method extends RequestMethod>(
    method: Method,
    params: Record<string, unknown> | undefined,
    options?: McpRequestOptions,
  ): Promise<ResultTypeMap[Method]>;

  /** One page of `tools/list`; `cursor` is passed through as given. */
  listTools(cursor?: string, options?: McpRequestOptions): Promise<ListToolsResult> {
    return this.perform("tools/list", page(cursor), options);
  }

  /** One page of `resources/list`. */
  listResources(cursor?: string, options?: McpRequestOptions): Promise<ListResourcesResult> {
    return this.perform("resources/list", page(cursor), options);
  }

  /** One page of `resources/templates/list`. */
  listResourceTemplates(
    cursor?: string,
    options?: McpRequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.perform("resources/templates/list", page(cursor), options);
  }

  /** One page of `prompts/list`. */
  listPrompts(cursor?: string, options?: McpRequestOptions): Promise<ListPromptsResult> {
    return this.perform("prompts/list", page(cursor), options);
  }

  /**
   * Calls a tool. The result keeps its `_meta`; a tool-level failure is a result with `isError`.
   *
   * @throws McpServerError for an MCP error answer (the session stays open); the errors of
   *   {@link McpClientSession} for timeouts, exits and lost synchronization.
   */
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: McpRequestOptions,
  ): Promise<CallToolResult> {
    return this.perform(
      "tools/call",
      { name, arguments: args },
      options,
    ) as Promise<CallToolResult>;
  }

  /** Reads a resource (`resources/read`). */
  readResource(uri: string, options?: McpRequestOptions): Promise<ReadResourceResult> {
    return this.perform("resources/read", { uri }, options);
  }

  /** Gets a prompt (`prompts/get`); empty arguments are sent as `{}`. */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: McpRequestOptions,
  ): Promise<GetPromptResult> {
    return this.perform("prompts/get", { name, arguments: args }, options);
  }

  /** Sends `ping`. */
  async ping(options?: McpRequestOptions): Promise<void> {
    await this.perform("ping", undefined, options);
  }
}

// A page request carries `params.cursor` only when the caller gave a cursor (even an empty one).
function page(cursor: string | undefined): Record<string, unknown> | undefined {
  return cursor === undefined ? undefined : { cursor };
}
