import type { ChatTool } from "@mcp-chat-host/protocol";

/** A call's progress as the server last reported it (`data-tool-progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * What a tab heard of a tool call's time while the reply streamed, which the stored tool part
 * does not keep: when the model started it, how long it took, and its last progress. Where the
 * call is (its state), its input and its output are the tool part's (`reply-chunks.ts`).
 */
export interface ToolClock {
  /** When the model started writing the call (ms since the epoch), when the tab saw it. */
  startedAt: number | null;
  /** How long the call took, once it ended while the tab listened. */
  durationMs: number | null;
  progress: ToolProgress | null;
}

/** The tools each chat offers, and the time of the open conversation's calls heard live. */
export interface ToolsSlice {
  /** By tool call id. */
  toolClocks: Record<string, ToolClock>;
  /** The tools each chat offers the model, by chat id (`chat:tools`; the session's, kept). */
  chatTools: Record<string, ChatTool[]>;
  /**
   * The renamed tools the person dismissed the notice of, by chat id (a key of the model names):
   * the notice shows again only when other tools are renamed.
   */
  dismissedRenames: Record<string, string>;
  /** A chat's tools as the server last listed them (`chat:tools`). */
  setChatTools(chatId: string, tools: ChatTool[]): void;
  /** The person dismissed the chat's notice about renamed tools. */
  dismissRenames(chatId: string): void;
}
