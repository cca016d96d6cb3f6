import type { ChatMessage } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { toModelMessages } from "./history";

function message(partial: Partial<ChatMessage> & Pick<ChatMessage, "role" | "parts">): ChatMessage {
  return {
    id: "m",
    conversationId: "c",
    chatId: "chat-1",
    seq: 0,
    status: "complete",
    createdAt: 0,
    ...partial,
  };
}

describe("toModelMessages", () => {
  it("rebuilds a tool loop as assistant, tool, assistant", () => {
    const history = toModelMessages([
      message({ role: "user", parts: [{ type: "text", text: "time?" }] }),
      message({
        role: "assistant",
        parts: [
          { type: "tool-call", toolCallId: "t1", name: "get-time", arguments: {} },
          {
            type: "tool-result",
            toolCallId: "t1",
            name: "get-time",
            value: "noon",
            isError: false,
          },
          { type: "card", instanceId: "host-1" },
          { type: "text", text: "It is noon." },
        ],
      }),
    ]);
    expect(history.map((entry) => entry.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(history[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "t1",
          toolName: "get-time",
          output: { type: "text", value: "noon" },
        },
      ],
    });
  });

  it("drops a tool call that never got its result", () => {
    const history = toModelMessages([
      message({
        role: "assistant",
        status: "interrupted",
        parts: [
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "t9", name: "slow", arguments: {} },
        ],
      }),
    ]);
    expect(history).toEqual([
      { role: "assistant", content: [{ type: "text", text: "Let me look." }] },
    ]);
  });

  it("gives errors back as error text and objects as JSON", () => {
    const history = toModelMessages([
      message({
        role: "assistant",
        parts: [
          { type: "tool-call", toolCallId: "a", name: "x", arguments: {} },
          {
            type: "tool-result",
            toolCallId: "a",
            name: "x",
            value: "The tool failed.",
            isError: true,
          },
          { type: "tool-call", toolCallId: "b", name: "y", arguments: {} },
          { type: "tool-result", toolCallId: "b", name: "y", value: { n: 1 }, isError: false },
        ],
      }),
    ]);
    const outputs = history
      .filter((entry) => entry.role === "tool")
      .flatMap((entry) => (entry.role === "tool" ? entry.content : []))
      .map((part) => (part.type === "tool-result" ? part.output : null));
    expect(outputs).toEqual([
      { type: "error-text", value: "The tool failed." },
      { type: "json", value: { n: 1 } },
    ]);
  });
});
