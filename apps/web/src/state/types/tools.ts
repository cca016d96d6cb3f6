import type { ChatTool, ServerEvents } from "@mcp-chat-host/protocol";

/**
 * Where a model tool call is:
 * - `running`: started, no result yet;
 * - `done` / `error`: it returned (error: the tool reported an error);
 * - `refused`: a check refused it before it ran;
 * - `unfinished`: a saved call without a result (the reply was stopped or interrupted).
 */
export type ToolRowStatus = "running" | "done" | "error" | "refused" | "unfinished";

/** A call's progress as the server last reported it (`tool:progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * What the page heard of a tool call while it ran, beyond what the message's parts say: when it
 * started, its progress, and how it ended. The call itself (name, source, arguments) and a stored
 * result are the message's parts; a row is derived from both (`toolRowOf` in `tools-slice.ts`).
 */
export interface ToolActivity {
  /** Null while only progress was heard. */
  status: Exclude<ToolRowStatus, "unfinished"> | null;
  /** When it started (ms since the epoch), when the page saw it start. */
  startedAt: number | null;
  progress: ToolProgress | null;
  /** The result's value (or error) once finished. */
  value: unknown;
  durationMs: number | null;
  /** Why it was refused. */
  reason: string | null;
}

/** A model tool call as a compact row under its message. */
export interface ToolRow {
  toolCallId: string;
  chatId: string;
  messageId: string;
  /** The tool's own name on its source (what the person sees). */
  name: string;
  /** The source the tool belongs to, when the server said. */
  source: string | null;
  /** The name the model was given for the tool, when it differs from `name`. */
  modelName: string | null;
  arguments: unknown;
  status: ToolRowStatus;
  startedAt: number | null;
  progress: ToolProgress | null;
  value: unknown;
  durationMs: number | null;
  reason: string | null;
}

/** The live activity of the open conversation's tool calls, and the tools each chat offers. */
export interface ToolsSlice {
  /** By tool call id. */
  toolActivity: Record<string, ToolActivity>;
  /** The tools each chat offers the model, by chat id (`chat:tools`; the session's, kept). */
  chatTools: Record<string, ChatTool[]>;
  /**
   * The renamed tools the person dismissed the notice of, by chat id (a key of the model names):
   * the notice shows again only when other tools are renamed.
   */
  dismissedRenames: Record<string, string>;
  /** A call reported progress (`tool:progress`). */
  toolProgressed(event: ServerEvents["tool:progress"]): void;
  /** A call ended (`tool:finished`). */
  toolFinished(event: ServerEvents["tool:finished"]): void;
  /** A chat's tools as the server last listed them (`chat:tools`). */
  setChatTools(chatId: string, tools: ChatTool[]): void;
  /** The person dismissed the chat's notice about renamed tools. */
  dismissRenames(chatId: string): void;
}
