// Messages stored before a reply became one stream of parts kept a model tool call as up to three
// parts: `tool-call`, `tool-result`, and a `card` naming the call. This file reads those into
// today's one `tool` part, for the store's migrations (SQLite and Postgres) and for importing an
// old export file. See docs/decisions/2026-12-02-reply-stream.md.
import type { CardPart, JsonValue, MessagePart, ToolPart } from "./store-records";

/** The refusal prefix the host wrote in front of a refused call's stored value. */
const REFUSED_PREFIX = "Tool call rejected. ";

interface LegacyToolCall {
  type: "tool-call";
  toolCallId: string;
  name: string;
  arguments?: JsonValue;
  source?: string;
  modelName?: string;
}

interface LegacyToolResult {
  type: "tool-result";
  toolCallId: string;
  name: string;
  value?: JsonValue;
  isError?: boolean;
  modelName?: string;
}

/**
 * Whether a message's parts are of the old shape (a `tool-call`, a `tool-result`, or a `card`
 * that names its call).
 */
function hasLegacyParts(parts: readonly unknown[]): boolean {
  return parts.some((part) => {
    const type = typeOf(part);
    if (type === "tool-call" || type === "tool-result") return true;
    return type === "card" && typeof (part as { toolCallId?: unknown }).toolCallId === "string";
  });
}

/**
 * Rewrites a message's parts of the old shape: each `tool-call` becomes a `tool` part in its
 * place, whose state, output or `errorText` come from the call's `tool-result` (a value that
 * starts "Tool call rejected." was a refusal: `output-denied`), and whose `instanceId` is the
 * card that named the call. A call without a result stays `input-available`, as its reply left it. A
 * result or card whose call is missing is kept as what it can still be: a card without a call,
 * or nothing. Parts of today's shape pass through.
 *
 * @returns the parts of today's shape, in the old order.
 */
export function upgradeMessageParts(parts: readonly unknown[]): MessagePart[] {
  const results = new Map<string, LegacyToolResult>();
  const cards = new Map<string, string>();
  const calls = new Set<string>();
  for (const part of parts) {
    const type = typeOf(part);
    if (type === "tool-result") {
      const result = part as LegacyToolResult;
      results.set(result.toolCallId, result);
    } else if (type === "tool-call") {
      calls.add((part as LegacyToolCall).toolCallId);
    } else if (type === "card") {
      const card = part as { instanceId: string; toolCallId?: unknown };
      if (typeof card.toolCallId === "string") cards.set(card.toolCallId, card.instanceId);
    }
  }
  const upgraded: MessagePart[] = [];
  for (const part of parts) {
    const type = typeOf(part);
    if (type === "tool-call") {
      const call = part as LegacyToolCall;
      upgraded.push(toolPartOf(call, results.get(call.toolCallId), cards.get(call.toolCallId)));
    } else if (type === "card") {
      const card = part as { instanceId: string; toolCallId?: unknown };
      // A card whose call is stored went into that call's part.
      if (typeof card.toolCallId === "string" && calls.has(card.toolCallId)) continue;
      const kept: CardPart = { type: "card", instanceId: card.instanceId };
      upgraded.push(kept);
    } else if (type !== "tool-result") {
      upgraded.push(part as MessagePart);
    }
  }
  return upgraded;
}

/**
 * The stored JSON of a message's parts, rewritten when it is of the old shape (the migrations'
 * step, the same for SQLite and Postgres).
 *
 * @returns the new JSON, or null when the parts need no rewriting (or are not a JSON array).
 */
export function rewrittenParts(json: string): string | null {
  let parts: unknown;
  try {
    parts = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || !hasLegacyParts(parts)) return null;
  return JSON.stringify(upgradeMessageParts(parts));
}

function toolPartOf(
  call: LegacyToolCall,
  result: LegacyToolResult | undefined,
  instanceId: string | undefined,
): ToolPart {
  const part: ToolPart = {
    type: "tool",
    toolCallId: call.toolCallId,
    name: call.name,
    state: "output-error",
    input: call.arguments ?? {},
  };
  if (call.source !== undefined) part.source = call.source;
  const modelName = call.modelName ?? result?.modelName;
  if (modelName !== undefined) part.modelName = modelName;
  // A call without a result stays where it was left: its input known, no outcome (a reply cut
  // short by a crash leaves the same).
  if (result === undefined) {
    part.state = "input-available";
  } else if (result.isError === true) {
    const text = typeof result.value === "string" ? result.value : JSON.stringify(result.value);
    if (text.startsWith(REFUSED_PREFIX)) {
      part.state = "output-denied";
      part.errorText = text.slice(REFUSED_PREFIX.length);
    } else {
      part.errorText = text;
    }
  } else {
    part.state = "output-available";
    part.output = result.value ?? null;
  }
  if (instanceId !== undefined) part.instanceId = instanceId;
  return part;
}

function typeOf(part: unknown): unknown {
  return typeof part === "object" && part !== null ? (part as { type?: unknown }).type : undefined;
}
