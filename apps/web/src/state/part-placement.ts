// Where a part the page hears of while a reply streams goes among the message's parts, so the
// page's order is the order the server stores: a card opened by a tool call goes right after that
// call's `tool-call` part, whichever of the two the page heard of first.
import type { MessagePart } from "@mcp-chat-host/protocol";

/** A `tool-call` part. */
export type ToolCallPart = Extract<MessagePart, { type: "tool-call" }>;

/** A `card` part. */
export type CardPart = Extract<MessagePart, { type: "card" }>;

/** The tool a card shows (from its descriptor): what links it to the call that opened it. */
export interface CardOrigin {
  /** The tool's own name on its source. */
  tool: string;
  source: string;
}

/** Finds the tool behind a card by its instance id (undefined: unknown card). */
export type CardOrigins = (instanceId: string) => CardOrigin | undefined;

function opens(call: ToolCallPart, origin: CardOrigin | undefined): boolean {
  if (origin === undefined || origin.tool !== call.name) return false;
  return call.source === undefined || call.source === origin.source;
}

function linkedCall(parts: MessagePart[], toolCallId: string): boolean {
  return parts.some((part) => part.type === "card" && part.toolCallId === toolCallId);
}

/**
 * Places a tool call: right before the card it opened when that card came first (a card opens
 * while the model still writes the arguments), else at the end. A known call keeps its place and
 * learns the fields it lacked.
 */
function placeToolCall(
  parts: MessagePart[],
  call: ToolCallPart,
  origins: CardOrigins,
): MessagePart[] {
  const known = parts.findIndex(
    (part) => part.type === "tool-call" && part.toolCallId === call.toolCallId,
  );
  if (known !== -1) {
    const existing = parts[known] as ToolCallPart;
    const merged: ToolCallPart = { ...call, ...existing };
    if (merged.source === existing.source && merged.modelName === existing.modelName) return parts;
    const next = [...parts];
    next[known] = merged;
    return next;
  }
  let cardIndex = parts.findIndex(
    (part) => part.type === "card" && part.toolCallId === call.toolCallId,
  );
  if (cardIndex === -1) {
    cardIndex = parts.findIndex(
      (part) =>
        part.type === "card" &&
        part.toolCallId === undefined &&
        opens(call, origins(part.instanceId)),
    );
  }
  if (cardIndex === -1) return [...parts, call];
  const card = parts[cardIndex] as CardPart;
  return [
    ...parts.slice(0, cardIndex),
    call,
    { ...card, toolCallId: call.toolCallId },
    ...parts.slice(cardIndex + 1),
  ];
}

/** The index of the call that opened a card not yet among the parts, or -1. */
function callOpening(parts: MessagePart[], card: CardPart, origins: CardOrigins): number {
  if (card.toolCallId !== undefined) {
    return parts.findIndex(
      (part) => part.type === "tool-call" && part.toolCallId === card.toolCallId,
    );
  }
  // Calls run in order: a call before the last card is done with its card (if it had one).
  let lastCard = -1;
  parts.forEach((part, index) => {
    if (part.type === "card") lastCard = index;
  });
  const origin = origins(card.instanceId);
  return parts.findIndex(
    (part, index) =>
      index > lastCard &&
      part.type === "tool-call" &&
      opens(part, origin) &&
      !linkedCall(parts, part.toolCallId),
  );
}

/**
 * Places a card: right after the call that opened it (named by `toolCallId`, else the first call
 * of the card's tool after the message's last card that opened no card yet), else at the end.
 */
function placeCard(parts: MessagePart[], card: CardPart, origins: CardOrigins): MessagePart[] {
  const known = parts.findIndex(
    (part) => part.type === "card" && part.instanceId === card.instanceId,
  );
  if (known !== -1) {
    const existing = parts[known] as CardPart;
    if (existing.toolCallId !== undefined || card.toolCallId === undefined) return parts;
    const next = [...parts];
    next[known] = { ...existing, toolCallId: card.toolCallId };
    return next;
  }
  const callIndex = callOpening(parts, card, origins);
  if (callIndex === -1) return [...parts, card];
  const call = parts[callIndex] as ToolCallPart;
  return [
    ...parts.slice(0, callIndex + 1),
    { ...card, toolCallId: call.toolCallId },
    ...parts.slice(callIndex + 1),
  ];
}

/**
 * Puts a part the page heard of while a reply streams (`tool:started`, `tool:refused`,
 * `card:opened`) where the server stores it. Text parts are appended (a delta always extends the
 * end); a part already there is not added twice.
 *
 * @param parts - the message's parts so far.
 * @param part - the new part.
 * @param origins - the tool behind each known card, to link a card and its call.
 * @returns the new parts: a new array, or `parts` itself when nothing changed (never mutated).
 */
export function placePart(
  parts: MessagePart[],
  part: MessagePart,
  origins: CardOrigins = () => undefined,
): MessagePart[] {
  switch (part.type) {
    case "tool-call":
      return placeToolCall(parts, part, origins);
    case "card":
      return placeCard(parts, part, origins);
    default:
      return [...parts, part];
  }
}
