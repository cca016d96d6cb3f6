import type {
  McpUiResourceCsp,
  McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { ToolAudience } from "./tool-metadata";

/** A zod 4 object shape (`{ city: z.string() }`) describing a tool's arguments or structured result. */
export type ZodRawShape = Record<string, z.ZodType>;

/** What an {@link McpAppTool} handler gets besides its arguments. */
export interface McpAppToolExtra {
  /** Aborted when the caller cancels the call (the person stopped the turn, the card closed). */
  signal: AbortSignal;
  /**
   * State of this server instance, shared by every call made through the same source and fresh for
   * each {@link McpApp.source}: the place for per-conversation state (cart, draft, counter).
   */
  state: Record<string, unknown>;
  /**
   * Reports progress to the caller; does nothing when the caller did not ask for progress.
   *
   * @param progress - progress so far; must increase with every call.
   * @param total - the total, when known.
   * @param message - a short human-readable message.
   */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
}

/** One tool of an {@link McpApp}. */
export interface McpAppTool<Shape extends ZodRawShape = ZodRawShape> {
  /** Unique within the app: 1-128 letters, digits, `_`, `-` or `.`. */
  name: string;
  /** Display title. */
  title?: string;
  /** What the tool does, for the model. */
  description: string;
  /** The arguments, as a zod object shape; none when omitted. */
  inputSchema?: Shape;
  /** The shape of `structuredContent`, when the tool returns one. */
  outputSchema?: ZodRawShape;
  /** Hints for the host's checks (read-only, destructive, idempotent, open world). */
  annotations?: ToolAnnotations;
  /** Who may call the tool; both the model and the app's page when omitted. */
  visibility?: ToolAudience[];
  /** Whether a call shows the app's page (a card); default true. */
  view?: boolean;
  /**
   * Runs the tool. A thrown error becomes a result with `isError: true` and the error's message.
   *
   * @param args - the arguments, checked against `inputSchema`.
   * @param extra - cancellation signal and progress reporting.
   * @returns the MCP result: `content`, and optionally `structuredContent`.
   */
  handler(
    args: z.infer<z.ZodObject<Shape>>,
    extra: McpAppToolExtra,
  ): CallToolResult | Promise<CallToolResult>;
}

/**
 * Declares one tool with its argument types inferred from `inputSchema`, for use in
 * {@link McpAppOptions.tools} (an array literal alone types the handler's arguments loosely).
 *
 * @returns the same tool.
 */
export function appTool<Shape extends ZodRawShape>(tool: McpAppTool<Shape>): McpAppTool {
  return tool as unknown as McpAppTool;
}

/** Options of {@link McpApp}. */
export interface McpAppOptions {
  /** The app's name: its source key, and the host of its page's URI (`ui://<name>`). */
  name: string;
  /** Display title of the app and of its page resource. */
  title?: string;
  /** The app's version, reported to the host. Default "1.0.0". */
  version?: string;
  /** The page: an HTML document, or a function giving one (called at every read). */
  html: string | (() => string | Promise<string>);
  /** Origins the page may reach (CSP); none when omitted. */
  csp?: McpUiResourceCsp;
  /** Browser features the page asks for. */
  permissions?: McpUiResourcePermissions;
  /** Whether the page wants the host to draw a border and background. */
  prefersBorder?: boolean;
  /** The app's tools. */
  tools: McpAppTool[];
}

/** Options of {@link McpApp.source}. */
export interface McpAppSourceOptions {
  /** Seconds to wait for each answer of the in-process server. Default 60. */
  timeout?: number;
  /** Called with errors the connection reports outside any request. */
  onError?: (error: Error) => void;
}
