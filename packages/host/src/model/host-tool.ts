import type { ToolAnnotations } from "@modelcontextprotocol/client";
import type { ModelToolOutcome } from "./tool-outcome";

/**
 * The JSON Schema of a tool's arguments, as an MCP server lists it (always an object schema); an
 * MCP `Tool["inputSchema"]` fits as it is.
 */
export interface ToolInputSchema {
  type: "object";
  properties?: Record<string, unknown> | undefined;
  required?: string[] | undefined;
  [keyword: string]: unknown;
}

/** A progress report of a running tool call (an MCP `notifications/progress`, minus the token). */
export interface ToolProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** What a tool's `execute` receives besides its arguments. */
export interface ToolRunContext {
  /** Aborted when the person stops the turn; the call should be cancelled on the server. */
  signal: AbortSignal;
  /** Relays a progress notification of this call to the browser. */
  onProgress: (progress: ToolProgress) => void;
  /** The model's id for this call; links the call, its card and its result. */
  toolCallId: string;
}

/**
 * A tool the model may call, independent of where it comes from (an in-process app or a remote
 * MCP server). The chat host builds these from its sources' model-visible tools.
 */
export interface HostTool {
  /** The tool's name as the model calls it; unique within one turn. */
  name: string;
  /** A human title (the tool's title or `annotations.title`). */
  title?: string;
  /** Told to the model: the tool's description, or its title, or "". */
  description: string;
  /** The JSON Schema of the arguments, passed to the model as is. */
  inputSchema: ToolInputSchema;
  /** MCP annotations, as listed; missing hints take the defaults of the permission check. */
  annotations?: ToolAnnotations;
  /** The name of the source that serves the tool. */
  source: string;
  /**
   * Calls the tool with the arguments as the model sent them (top-level nulls dropped).
   * Should resolve with an error outcome rather than throw when the server answers with an error.
   */
  execute: (args: Record<string, unknown>, context: ToolRunContext) => Promise<ModelToolOutcome>;
}
