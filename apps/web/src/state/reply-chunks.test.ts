import type { MessagePart } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { sampleReply, sampleReplyParts } from "../test-support/reply-chunks";
import { applyReplyChunk } from "./reply-chunks";

/** The parts after applying chunks one by one, from `parts`. */
function applied(chunks: typeof sampleReply, parts: MessagePart[] = []): MessagePart[] {
  return chunks.reduce((known, chunk) => applyReplyChunk(known, chunk).parts, parts);
}

describe("applyReplyChunk", () => {
  it("builds a reply's parts in the order of its chunks, each tool part through its states", () => {
    expect(applied(sampleReply)).toEqual(sampleReplyParts);
  });

  it("shows each tool input delta as the part's input while the model writes it", () => {
    const upToDeltas = sampleReply.slice(0, 8);
    const part = applied(upToDeltas)[1];
    expect(part).toMatchObject({ state: "input-streaming", input: { zone: "UT" } });
  });

  it("changes nothing for tool chunks the parts already show (a snapshot read after them)", () => {
    const final = applied(sampleReply);
    for (const chunk of sampleReply) {
      if (chunk.type.startsWith("text")) continue;
      const outcome = applyReplyChunk(final, chunk);
      expect(outcome.parts).toBe(final);
      expect(outcome.changedTool).toBeNull();
      expect(outcome.openedCard).toBeNull();
    }
  });

  it("never moves a part back: a late input delta after the input is complete is dropped", () => {
    const available = applied(sampleReply.slice(0, 11));
    const late = applyReplyChunk(available, {
      type: "tool-input-delta",
      toolCallId: "c1",
      input: { zone: "stale" },
    });
    expect(late.parts).toBe(available);
  });

  it("says which card a call opened and which one it lost", () => {
    const started = applied(sampleReply.slice(0, 5));
    const opened = applyReplyChunk(started, sampleReply[5]!);
    expect(opened.openedCard?.instanceId).toBe("host-1");
    expect(opened.changedTool?.instanceId).toBe("host-1");
    const withdrawn = applyReplyChunk(opened.parts, {
      type: "data-card-withdrawn",
      toolCallId: "c1",
      instanceId: "host-1",
      reason: "The arguments were not valid JSON.",
    });
    expect(withdrawn.withdrawnCard).toBe("host-1");
    expect(withdrawn.parts[1]).not.toHaveProperty("instanceId");
  });

  it("ignores chunks for a call the reply does not have", () => {
    const parts = applied(sampleReply.slice(0, 4));
    expect(
      applyReplyChunk(parts, { type: "tool-output-denied", toolCallId: "nope", reason: "No." })
        .parts,
    ).toBe(parts);
  });
});
