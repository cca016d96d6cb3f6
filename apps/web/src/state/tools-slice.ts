import type { ChatMessage, ChatTool, MessagePart } from "@mcp-chat-host/protocol";
import type { HostSliceCreator } from "./host-state";
import type { ToolActivity, ToolProgress, ToolRow, ToolRowStatus, ToolsSlice } from "./types/tools";

export type { ToolRow } from "./types/tools";

/** The activity of a call the page has heard nothing of yet. */
export const noActivity: ToolActivity = {
  status: null,
  startedAt: null,
  progress: null,
  value: undefined,
  durationMs: null,
  reason: null,
};

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

/**
 * A tool call's row, derived from its message's parts and the call's live activity; undefined
 * when the message has no such call.
 */
export function toolRowOf(
  message: ChatMessage,
  toolCallId: string,
  activity: ToolActivity = noActivity,
): ToolRow | undefined {
  let call: Extract<MessagePart, { type: "tool-call" }> | undefined;
  let result: Extract<MessagePart, { type: "tool-result" }> | undefined;
  for (const part of message.parts) {
    if (part.type === "tool-call" && part.toolCallId === toolCallId) call = part;
    if (part.type === "tool-result" && part.toolCallId === toolCallId) result = part;
  }
  if (call === undefined) return undefined;
  const streaming = message.status === "streaming";
  let status: ToolRowStatus = activity.status ?? (streaming ? "running" : "unfinished");
  let value = activity.value;
  if (result !== undefined && status !== "refused") {
    status = result.isError ? "error" : "done";
    value = result.value;
  }
  // A call still running in a message that is no longer streaming will never finish.
  if (!streaming && status === "running") status = "unfinished";
  return {
    toolCallId,
    chatId: message.chatId,
    messageId: message.id,
    name: call.name,
    source: call.source ?? null,
    modelName: call.modelName ?? null,
    arguments: call.arguments,
    status,
    startedAt: activity.startedAt,
    progress: activity.progress,
    value,
    durationMs: activity.durationMs,
    reason: activity.reason,
  };
}

/** The tools slice. */
export const createToolsSlice: HostSliceCreator<ToolsSlice> = (set) => ({
  toolActivity: {},
  chatTools: {},
  dismissedRenames: {},
  toolProgressed(event) {
    const progress: ToolProgress = { progress: event.progress };
    if (event.total !== undefined) progress.total = event.total;
    if (event.message !== undefined) progress.message = event.message;
    set((state) => {
      const known = state.toolActivity[event.toolCallId] ?? noActivity;
      return {
        toolActivity: { ...state.toolActivity, [event.toolCallId]: { ...known, progress } },
      };
    });
  },
  toolFinished(event) {
    set((state) => {
      const known = state.toolActivity[event.toolCallId] ?? noActivity;
      const finished: ToolActivity = {
        ...known,
        status: event.isError ? "error" : "done",
        value: event.value,
        durationMs: event.durationMs,
        reason: null,
      };
      return { toolActivity: { ...state.toolActivity, [event.toolCallId]: finished } };
    });
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
});
