import type { ChatTool, ReplyChunk } from "@mcp-chat-host/protocol";
import type { HostSliceCreator } from "./host-state";
import type { ToolClock, ToolsSlice } from "./types/tools";

/** The clock of a call the tab has heard nothing of the time of. */
export const noClock: ToolClock = { startedAt: null, durationMs: null, progress: null };

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

function clockChange(chunk: ReplyChunk): [string, Partial<ToolClock>] | null {
  switch (chunk.type) {
    case "tool-input-start":
      return [chunk.toolCallId, { startedAt: chunk.startedAt }];
    case "data-tool-progress": {
      const progress: NonNullable<ToolClock["progress"]> = { progress: chunk.progress };
      if (chunk.total !== undefined) progress.total = chunk.total;
      if (chunk.message !== undefined) progress.message = chunk.message;
      return [chunk.toolCallId, { progress }];
    }
    case "tool-output-available":
    case "tool-output-error":
      return [chunk.toolCallId, { durationMs: chunk.durationMs }];
    default:
      return null;
  }
}

/**
 * The calls' clocks after a reply chunk: a call's start, its progress and its duration.
 *
 * @returns the same record when the chunk says nothing of a call's time.
 */
export function withToolClock(
  clocks: Record<string, ToolClock>,
  chunk: ReplyChunk,
): Record<string, ToolClock> {
  const change = clockChange(chunk);
  if (change === null) return clocks;
  const [toolCallId, fields] = change;
  return { ...clocks, [toolCallId]: { ...(clocks[toolCallId] ?? noClock), ...fields } };
}

/** The tools slice. */
export const createToolsSlice: HostSliceCreator<ToolsSlice> = (set) => ({
  toolClocks: {},
  chatTools: {},
  dismissedRenames: {},
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
