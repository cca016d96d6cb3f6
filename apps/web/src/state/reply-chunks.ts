// How one chunk of a reply being written (`message:chunk`, protocol `reply-chunks.ts`) changes the
// reply a tab shows. The server sends the parts in the order it stores them and every chunk names
// the part it changes, so a part is appended or updated, never placed. A tool part only moves
// forward through its states: a chunk for a part already past it changes nothing, so a tab whose
// snapshot was read mid-reply applies what follows without showing anything twice.
import {
  toolPartStateRank,
  type CardDescriptor,
  type MessagePart,
  type ReplyChunk,
  type ToolPartState,
} from "@mcp-chat-host/protocol";
import type { ToolPart } from "./types/messages";

/** What a chunk did to a reply. */
export interface ChunkOutcome {
  /** The reply's parts after the chunk (the same array when it changed nothing). */
  parts: MessagePart[];
  /** The tool part the chunk changed, after the change; null when it changed none. */
  changedTool: ToolPart | null;
  /** A card the chunk gave a tool part (`data-card`), to register. */
  openedCard: CardDescriptor | null;
  /** A card the chunk took from its tool part (`data-card-withdrawn`), to drop. */
  withdrawnCard: string | null;
}

function unchanged(parts: MessagePart[]): ChunkOutcome {
  return { parts, changedTool: null, openedCard: null, withdrawnCard: null };
}

/** The parts with the tool part `toolCallId` changed; unchanged when `change` returns it as is. */
function withToolPart(
  parts: MessagePart[],
  toolCallId: string,
  change: (part: ToolPart) => ToolPart,
): ChunkOutcome {
  const index = parts.findIndex((part) => part.type === "tool" && part.toolCallId === toolCallId);
  const known = parts[index];
  if (known?.type !== "tool") return unchanged(parts);
  const changed = change(known);
  if (changed === known) return unchanged(parts);
  const next = [...parts];
  next[index] = changed;
  return { ...unchanged(next), changedTool: changed };
}

/** A part moved to `state`, when it is not there or past it yet. */
function advanced(part: ToolPart, state: ToolPartState, fields: Partial<ToolPart>): ToolPart {
  if (toolPartStateRank[part.state] >= toolPartStateRank[state]) return part;
  return { ...part, ...fields, state };
}

function appendedText(parts: MessagePart[], delta: string): MessagePart[] {
  if (delta === "") return parts;
  const next = [...parts];
  const last = next[next.length - 1];
  if (last?.type === "text") next[next.length - 1] = { ...last, text: last.text + delta };
  else next.push({ type: "text", text: delta });
  return next;
}

function startedTool(
  parts: MessagePart[],
  chunk: Extract<ReplyChunk, { type: "tool-input-start" }>,
): ChunkOutcome {
  if (parts.some((part) => part.type === "tool" && part.toolCallId === chunk.toolCallId)) {
    return unchanged(parts);
  }
  const part: ToolPart = {
    type: "tool",
    toolCallId: chunk.toolCallId,
    name: chunk.toolName,
    ...(chunk.source === undefined ? {} : { source: chunk.source }),
    ...(chunk.modelName === undefined ? {} : { modelName: chunk.modelName }),
    state: "input-streaming",
    input: {},
  };
  return { ...unchanged([...parts, part]), changedTool: part };
}

/**
 * Applies one chunk to a reply's parts. Text deltas must already be placed by their offset
 * (`socket/delta-order.ts`): `delta` is the text the tab does not have yet.
 *
 * @param parts - the reply's parts as the tab has them.
 * @param chunk - the chunk.
 * @returns the parts after it, and what it did to tool parts and cards.
 */
export function applyReplyChunk(parts: MessagePart[], chunk: ReplyChunk): ChunkOutcome {
  switch (chunk.type) {
    case "text-start":
    case "text-end":
      // The server makes a text part with its first text, after a part that is not text, and
      // a delta does the same here: so a `text-start` a snapshot already holds opens nothing
      // twice, and no empty part waits at the end.
      return unchanged(parts);
    case "text-delta":
      return unchanged(appendedText(parts, chunk.delta));
    case "tool-input-start":
      return startedTool(parts, chunk);
    case "tool-input-delta":
      return withToolPart(parts, chunk.toolCallId, (part) =>
        part.state === "input-streaming" ? { ...part, input: chunk.input } : part,
      );
    case "tool-input-available":
      return withToolPart(parts, chunk.toolCallId, (part) =>
        advanced(part, "input-available", { input: chunk.input }),
      );
    case "data-tool-progress":
      // Progress is not part of the reply: the tools slice keeps it while the call runs.
      return unchanged(parts);
    case "data-card": {
      const outcome = withToolPart(parts, chunk.toolCallId, (part) =>
        part.instanceId === undefined ? { ...part, instanceId: chunk.card.instanceId } : part,
      );
      return outcome.changedTool === null ? outcome : { ...outcome, openedCard: chunk.card };
    }
    case "data-card-withdrawn": {
      const outcome = withToolPart(parts, chunk.toolCallId, (part) => {
        if (part.instanceId !== chunk.instanceId) return part;
        const withoutCard = { ...part };
        delete withoutCard.instanceId;
        return withoutCard;
      });
      return outcome.changedTool === null
        ? outcome
        : { ...outcome, withdrawnCard: chunk.instanceId };
    }
    case "tool-output-available":
      return withToolPart(parts, chunk.toolCallId, (part) =>
        advanced(part, "output-available", { output: chunk.output }),
      );
    case "tool-output-error":
      return withToolPart(parts, chunk.toolCallId, (part) =>
        advanced(part, "output-error", { errorText: chunk.errorText }),
      );
    case "tool-output-denied":
      return withToolPart(parts, chunk.toolCallId, (part) =>
        advanced(part, "output-denied", { errorText: chunk.reason }),
      );
  }
}
