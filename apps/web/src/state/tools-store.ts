import type { ChatMessage, ChatTool, ServerEvents } from "@mcp-chat-host/protocol";
import { create } from "zustand";

/**
 * Where a model tool call is:
 * - `running`: started, no result yet;
 * - `done` / `error`: it returned (error: the tool reported an error);
 * - `refused`: a check refused it before it ran;
 * - `unfinished`: a saved call without a result (the reply was stopped or interrupted).
 */
export type ToolRowStatus = "running" | "done" | "error" | "refused" | "unfinished";

/** A model tool call as a compact row under its message. */
export interface ToolRow {
  toolCallId: string;
  chatId: string;
  messageId: string | null;
  /** The tool's own name on its source (what the person sees). */
  name: string;
  /** The source the tool belongs to, when the server said. */
  source: string | null;
  /** The name the model was given for the tool, when it differs from `name`. */
  modelName: string | null;
  arguments: unknown;
  status: ToolRowStatus;
  /** When it started (ms since the epoch), when the page saw it start. */
  startedAt: number | null;
  progress: { progress: number; total?: number; message?: string } | null;
  /** The result's value (or error) once finished. */
  value: unknown;
  durationMs: number | null;
  /** Why it was refused. */
  reason: string | null;
}

/** The tool rows of the open conversation (by tool call id), and the tools each chat offers. */
export interface ToolsState {
  rows: Record<string, ToolRow>;
  /** The tools each chat offers the model, by chat id (`chat:tools`; the session's, kept). */
  chatTools: Record<string, ChatTool[]>;
  /**
   * The renamed tools the person dismissed the notice of, by chat id (a key of the model names):
   * the notice shows again only when other tools are renamed.
   */
  dismissedRenames: Record<string, string>;
  /** Rebuilds the rows from stored messages' parts, keeping what live events added. */
  replaceFromMessages(messages: ChatMessage[]): void;
  /** Updates the rows of one message from its parts (after `message:updated`). */
  mergeFromMessage(message: ChatMessage): void;
  /** A call started (`tool:started`). */
  started(event: ServerEvents["tool:started"]): void;
  /** A call reported progress (`tool:progress`). */
  progressed(event: ServerEvents["tool:progress"]): void;
  /** A call ended (`tool:finished`). */
  finished(event: ServerEvents["tool:finished"]): void;
  /** A call was refused (`tool:refused`); `messageId` is where the page shows it. */
  refused(event: ServerEvents["tool:refused"], messageId: string | null): void;
  /** A chat's tools as the server last listed them (`chat:tools`). */
  setChatTools(chatId: string, tools: ChatTool[]): void;
  /** The person dismissed the chat's notice about renamed tools. */
  dismissRenames(chatId: string): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

/** The tools of a chat whose model name differs from their own, with why. */
export function renamedTools(tools: readonly ChatTool[] | undefined): ChatTool[] {
  return (tools ?? []).filter((tool) => tool.renamed !== undefined);
}

/** The key of a set of renamed tools: their model names, sorted. */
export function renamesKey(tools: readonly ChatTool[]): string {
  return tools
    .map((tool) => tool.modelName)
    .sort()
    .join("\n");
}

function rowsOf(message: ChatMessage, known: Record<string, ToolRow>): Record<string, ToolRow> {
  const rows: Record<string, ToolRow> = {};
  for (const part of message.parts) {
    if (part.type === "tool-call") {
      const previous = known[part.toolCallId];
      rows[part.toolCallId] = {
        toolCallId: part.toolCallId,
        chatId: message.chatId,
        messageId: message.id,
        name: part.name,
        source: part.source ?? previous?.source ?? null,
        modelName: part.modelName ?? previous?.modelName ?? null,
        arguments: part.arguments,
        status: previous?.status ?? (message.status === "streaming" ? "running" : "unfinished"),
        startedAt: previous?.startedAt ?? null,
        progress: previous?.progress ?? null,
        value: previous?.value,
        durationMs: previous?.durationMs ?? null,
        reason: previous?.reason ?? null,
      };
    }
  }
  for (const part of message.parts) {
    if (part.type !== "tool-result") continue;
    const row = rows[part.toolCallId];
    if (row === undefined) continue;
    if (row.status === "refused") continue;
    rows[part.toolCallId] = { ...row, status: part.isError ? "error" : "done", value: part.value };
  }
  // A call still marked running in a message that is no longer streaming will never finish.
  if (message.status !== "streaming") {
    for (const [id, row] of Object.entries(rows)) {
      if (row.status === "running") rows[id] = { ...row, status: "unfinished" };
    }
  }
  return rows;
}

/** The tool rows store. */
export const useToolsStore = create<ToolsState>()((set, get) => ({
  rows: {},
  chatTools: {},
  dismissedRenames: {},
  replaceFromMessages(messages) {
    const known = get().rows;
    const rows: Record<string, ToolRow> = {};
    for (const message of messages) Object.assign(rows, rowsOf(message, known));
    set({ rows });
  },
  mergeFromMessage(message) {
    set((state) => ({ rows: { ...state.rows, ...rowsOf(message, state.rows) } }));
  },
  started(event) {
    set((state) => ({
      rows: {
        ...state.rows,
        [event.toolCallId]: {
          toolCallId: event.toolCallId,
          chatId: event.chatId,
          messageId: event.messageId,
          name: event.name,
          source: event.source ?? null,
          modelName: event.modelName ?? null,
          arguments: event.arguments,
          status: "running",
          startedAt: event.startedAt,
          progress: null,
          value: undefined,
          durationMs: null,
          reason: null,
        },
      },
    }));
  },
  progressed(event) {
    const row = get().rows[event.toolCallId];
    if (row === undefined) return;
    const progress: NonNullable<ToolRow["progress"]> = { progress: event.progress };
    if (event.total !== undefined) progress.total = event.total;
    if (event.message !== undefined) progress.message = event.message;
    set((state) => ({ rows: { ...state.rows, [event.toolCallId]: { ...row, progress } } }));
  },
  finished(event) {
    const row = get().rows[event.toolCallId];
    set((state) => ({
      rows: {
        ...state.rows,
        [event.toolCallId]: {
          toolCallId: event.toolCallId,
          chatId: event.chatId,
          messageId: row?.messageId ?? null,
          // The started row knows the tool's own name and source; keep them.
          name: row?.name ?? event.name,
          source: row?.source ?? null,
          modelName: row?.modelName ?? null,
          arguments: row?.arguments,
          startedAt: row?.startedAt ?? null,
          progress: row?.progress ?? null,
          reason: null,
          status: event.isError ? "error" : "done",
          value: event.value,
          durationMs: event.durationMs,
        },
      },
    }));
  },
  refused(event, messageId) {
    const row = get().rows[event.toolCallId];
    set((state) => ({
      rows: {
        ...state.rows,
        [event.toolCallId]: {
          toolCallId: event.toolCallId,
          chatId: event.chatId,
          messageId: row?.messageId ?? messageId,
          name: row?.name ?? event.name,
          source: row?.source ?? null,
          modelName: row?.modelName ?? null,
          arguments: row?.arguments,
          startedAt: row?.startedAt ?? null,
          progress: null,
          value: undefined,
          durationMs: null,
          status: "refused",
          reason: event.reason,
        },
      },
    }));
  },
  setChatTools(chatId, tools) {
    set((state) => ({ chatTools: { ...state.chatTools, [chatId]: tools } }));
  },
  dismissRenames(chatId) {
    set((state) => ({
      dismissedRenames: {
        ...state.dismissedRenames,
        [chatId]: renamesKey(renamedTools(state.chatTools[chatId])),
      },
    }));
  },
  reset() {
    set({ rows: {}, chatTools: {}, dismissedRenames: {} });
  },
}));
