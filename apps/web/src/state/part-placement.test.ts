import type { MessagePart } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { type CardOrigins, placePart } from "./part-placement";

const text = (value: string): MessagePart => ({ type: "text", text: value });
const call = (toolCallId: string, name = "open-notes", source = "notes"): MessagePart => ({
  type: "tool-call",
  toolCallId,
  name,
  arguments: {},
  source,
});
const card = (instanceId: string, toolCallId?: string): MessagePart =>
  toolCallId === undefined
    ? { type: "card", instanceId }
    : { type: "card", instanceId, toolCallId };

/** Every card shows the notes tool of the notes source, except "clock-*" cards. */
const origins: CardOrigins = (instanceId) =>
  instanceId.startsWith("clock")
    ? { tool: "get-time", source: "clock" }
    : { tool: "open-notes", source: "notes" };

function shape(parts: MessagePart[]): string[] {
  return parts.map((part) => {
    if (part.type === "text") return `text:${part.text}`;
    if (part.type === "tool-call") return `call:${part.toolCallId}`;
    if (part.type === "card") return `card:${part.instanceId}@${part.toolCallId ?? "?"}`;
    return `result:${part.toolCallId}`;
  });
}

describe("placePart", () => {
  it("puts a call before the card it opened when the card came first (streamed arguments)", () => {
    // The server stores [text, tool-call, card]: the page must agree at every step.
    let parts = [text("Opening it.")];
    parts = placePart(parts, card("host-1"), origins);
    expect(shape(parts)).toEqual(["text:Opening it.", "card:host-1@?"]);
    parts = placePart(parts, call("t1"), origins);
    expect(shape(parts)).toEqual(["text:Opening it.", "call:t1", "card:host-1@t1"]);
  });

  it("puts a card right after its call when the call came first, even with text after it", () => {
    let parts = [text("A"), call("t1")];
    parts = [...parts, text("B")];
    parts = placePart(parts, card("host-1"), origins);
    expect(shape(parts)).toEqual(["text:A", "call:t1", "card:host-1@t1", "text:B"]);
  });

  it("links a card named by its toolCallId to that call", () => {
    const parts = placePart([call("t1"), call("t2")], card("host-2", "t2"), origins);
    expect(shape(parts)).toEqual(["call:t1", "call:t2", "card:host-2@t2"]);
  });

  it("links each card to the next call of its tool that opened none, in call order", () => {
    let parts = [call("c1", "get-time", "clock"), call("t1"), call("t2")];
    parts = placePart(parts, card("host-1"), origins);
    parts = placePart(parts, card("host-2"), origins);
    parts = placePart(parts, card("clock-1"), origins);
    expect(shape(parts)).toEqual([
      "call:c1",
      "call:t1",
      "card:host-1@t1",
      "call:t2",
      "card:host-2@t2",
      // No call of the clock's tool after the last card: at the end, as the server would.
      "card:clock-1@?",
    ]);
  });

  it("does not link a call to a card of another tool or source", () => {
    const parts = placePart([card("clock-1")], call("t1"), origins);
    expect(shape(parts)).toEqual(["card:clock-1@?", "call:t1"]);
    const otherSource = placePart([card("host-1")], call("t2", "open-notes", "elsewhere"), origins);
    expect(shape(otherSource)).toEqual(["card:host-1@?", "call:t2"]);
  });

  it("never adds a part twice, and a known call learns its source and model name", () => {
    const parts = [call("t1"), card("host-1", "t1")];
    expect(placePart(parts, card("host-1"), origins)).toBe(parts);
    expect(placePart(parts, call("t1"), origins)).toBe(parts);
    const bare: MessagePart[] = [{ type: "tool-call", toolCallId: "t9", name: "x", arguments: {} }];
    const learned = placePart(bare, {
      type: "tool-call",
      toolCallId: "t9",
      name: "x",
      arguments: {},
      source: "s",
      modelName: "s__x",
    });
    expect(learned).toEqual([
      {
        type: "tool-call",
        toolCallId: "t9",
        name: "x",
        arguments: {},
        source: "s",
        modelName: "s__x",
      },
    ]);
  });
});
