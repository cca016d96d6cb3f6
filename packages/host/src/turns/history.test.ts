import type { ChatMessage } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { historyForTurn, STOPPED_REPLY_MARK, toModelMessages } from "./history";

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
          {
            type: "tool",
            toolCallId: "t1",
            name: "get-time",
            state: "output-available",
            input: {},
            output: "noon",
            instanceId: "host-1",
          },
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

  it("drops a tool call that never got its outcome, and marks a stopped reply", () => {
    const history = toModelMessages([
      message({
        role: "assistant",
        status: "stopped",
        parts: [
          { type: "text", text: "Let me look." },
          { type: "tool", toolCallId: "t9", name: "slow", state: "input-available", input: {} },
        ],
      }),
    ]);
    expect(history).toEqual([
      {
        role: "assistant",
        content: [{ type: "text", text: `Let me look.\n\n${STOPPED_REPLY_MARK}` }],
      },
    ]);
  });

  it("puts the stop mark after a blank line, never against a word cut short", () => {
    const history = toModelMessages([
      message({
        role: "assistant",
        status: "stopped",
        parts: [{ type: "text", text: "Once upon a time, a long, sl" }],
      }),
    ]);
    expect(history).toEqual([
      {
        role: "assistant",
        content: [{ type: "text", text: `Once upon a time, a long, sl\n\n${STOPPED_REPLY_MARK}` }],
      },
    ]);
  });

  it.each(["error", "interrupted", "streaming"] as const)(
    "leaves out the partial text of a %s reply but keeps the tool calls that ran",
    (status) => {
      const history = toModelMessages([
        message({ role: "user", parts: [{ type: "text", text: "Add a note" }] }),
        message({
          role: "assistant",
          status,
          parts: [
            { type: "text", text: "Done. The to" },
            {
              type: "tool",
              toolCallId: "t1",
              name: "add",
              state: "output-available",
              input: { text: "x" },
              output: "ok",
            },
            { type: "text", text: "Saved, and the" },
          ],
        }),
      ]);
      expect(JSON.stringify(history)).not.toContain("Done. The to");
      expect(JSON.stringify(history)).not.toContain("Saved, and the");
      expect(history.map((entry) => entry.role)).toEqual(["user", "assistant", "tool"]);
    },
  );

  it("sends a message the model never answered once", () => {
    const failed = message({
      role: "assistant",
      status: "error",
      parts: [{ type: "text", text: "Half an ans" }],
    });
    const history = toModelMessages([
      message({ role: "user", parts: [{ type: "text", text: "Hello?" }] }),
      failed,
      message({ role: "user", parts: [{ type: "text", text: "Hello?" }] }),
      failed,
    ]);
    expect(history).toEqual([{ role: "user", content: "Hello?" }]);
    // The new message of the turn: the earlier unanswered copy is left out.
    expect(
      historyForTurn(
        [message({ role: "user", parts: [{ type: "text", text: "Hello?" }] }), failed],
        "Hello?",
      ),
    ).toEqual([]);
    // A different unanswered question stays.
    expect(
      historyForTurn(
        [message({ role: "user", parts: [{ type: "text", text: "First" }] }), failed],
        "Second",
      ),
    ).toEqual([{ role: "user", content: "First" }]);
  });

  it("replays a renamed tool under the name the model was given", () => {
    const history = toModelMessages([
      message({
        role: "assistant",
        parts: [
          {
            type: "tool",
            toolCallId: "t1",
            name: "get-time",
            modelName: "basic-react__get-time",
            source: "basic-react",
            state: "output-available",
            input: {},
            output: "noon",
          },
        ],
      }),
    ]);
    expect(JSON.stringify(history)).toContain('"toolName":"basic-react__get-time"');
    expect(JSON.stringify(history)).not.toContain('"toolName":"get-time"');
  });

  it("gives errors back as error text and objects as JSON", () => {
    const history = toModelMessages([
      message({
        role: "assistant",
        parts: [
          {
            type: "tool",
            toolCallId: "a",
            name: "x",
            state: "output-error",
            input: {},
            errorText: "The tool failed.",
          },
          {
            type: "tool",
            toolCallId: "b",
            name: "y",
            state: "output-available",
            input: {},
            output: { n: 1 },
          },
          {
            type: "tool",
            toolCallId: "c",
            name: "z",
            state: "output-denied",
            input: {},
            errorText: "Not allowed.",
          },
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
      { type: "error-text", value: "Tool call rejected. Not allowed." },
    ]);
  });
});
