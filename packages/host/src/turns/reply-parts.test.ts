import type { CardDescriptor, ReplyChunk } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { ReplyParts } from "./reply-parts";

function recorded() {
  const chunks: ReplyChunk[] = [];
  return { chunks, parts: new ReplyParts((chunk) => chunks.push(chunk)) };
}

const card = { instanceId: "host-1", tool: "greet" } as CardDescriptor;

describe("ReplyParts", () => {
  it("sends each change of its parts as the chunk that makes it, text offsets counted", () => {
    const { chunks, parts } = recorded();
    parts.addText("Let me ");
    parts.addText("look.");
    parts.startTool("call-1", { name: "greet", source: "greeter" }, 5);
    parts.inputDelta("call-1", { name: "A" });
    parts.card("call-1", card);
    parts.inputAvailable("call-1", { name: "Ada" });
    parts.outputAvailable("call-1", "Hello, Ada!", { content: [] }, 12);
    parts.newStep();
    parts.addText("Done.");
    parts.settle("unused");

    expect(chunks).toEqual([
      { type: "text-start", id: "text-1" },
      { type: "text-delta", id: "text-1", delta: "Let me ", offset: 0 },
      { type: "text-delta", id: "text-1", delta: "look.", offset: 7 },
      { type: "text-end", id: "text-1" },
      {
        type: "tool-input-start",
        toolCallId: "call-1",
        toolName: "greet",
        source: "greeter",
        startedAt: 5,
      },
      { type: "tool-input-delta", toolCallId: "call-1", input: { name: "A" } },
      { type: "data-card", toolCallId: "call-1", card },
      { type: "tool-input-available", toolCallId: "call-1", input: { name: "Ada" } },
      {
        type: "tool-output-available",
        toolCallId: "call-1",
        output: "Hello, Ada!",
        cardResult: { content: [] },
        durationMs: 12,
      },
      { type: "text-start", id: "text-2" },
      // A later step's text is a paragraph of its own; the offset counts every text part.
      { type: "text-delta", id: "text-2", delta: "\n\nDone.", offset: 12 },
      { type: "text-end", id: "text-2" },
    ]);
    expect(parts.parts).toEqual([
      { type: "text", text: "Let me look." },
      {
        type: "tool",
        toolCallId: "call-1",
        name: "greet",
        source: "greeter",
        state: "output-available",
        input: { name: "Ada" },
        output: "Hello, Ada!",
        instanceId: "host-1",
      },
      { type: "text", text: "\n\nDone." },
    ]);
  });

  it("moves a tool part only forward: a repeat, or a chunk for a settled call, sends nothing", () => {
    const { chunks, parts } = recorded();
    parts.startTool("call-1", { name: "greet" }, 1);
    parts.startTool("call-1", { name: "greet" }, 2);
    parts.inputDelta("call-1", {});
    parts.inputAvailable("call-1", {});
    parts.inputDelta("call-1", { late: true });
    parts.outputDenied("call-1", "No.");
    parts.outputAvailable("call-1", "late", undefined, 0);
    parts.outputError("call-1", "late", undefined, 0);
    parts.progress("call-1", { progress: 1 });
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "tool-input-start",
      "tool-input-available",
      "tool-output-denied",
    ]);
    expect(parts.tool("call-1")).toMatchObject({ state: "output-denied", errorText: "No." });
  });

  it("fails the calls without an outcome when the reply ends, and withdraws a card", () => {
    const { chunks, parts } = recorded();
    parts.startTool("call-1", { name: "greet" }, 1);
    parts.card("call-1", card);
    parts.withdrawCard("call-1", "Unreadable.");
    parts.startTool("call-2", { name: "greet" }, 1);
    parts.inputAvailable("call-2", {});
    parts.outputAvailable("call-2", "ok", undefined, 3);
    expect(parts.settle("The person stopped the reply.")).toEqual(["call-1"]);
    expect(chunks.slice(1, 3)).toEqual([
      { type: "data-card", toolCallId: "call-1", card },
      {
        type: "data-card-withdrawn",
        toolCallId: "call-1",
        instanceId: "host-1",
        reason: "Unreadable.",
      },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "tool-output-error",
      toolCallId: "call-1",
      errorText: "The person stopped the reply.",
      durationMs: 0,
    });
    expect(parts.tool("call-1")).not.toHaveProperty("instanceId");
  });
});
