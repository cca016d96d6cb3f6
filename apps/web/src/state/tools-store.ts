import type { ChatMessage, ServerEvents } from "@mcp-chat-host/protocol";
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
  name: string;
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

/** The tool rows of the open conversation, by tool call id. */
export interface ToolsState {
  rows: Record<string, ToolRow>;
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
  /** Back to the initial state (tests). */
  reset(): void;
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
          name: event.name,
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
          name: event.name,
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
  reset() {
    set({ rows: {} });
  },
}));
