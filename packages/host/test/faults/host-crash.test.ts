// Fault: the host is killed with SIGKILL in the middle of a streaming reply and started again on
// the same SQLite file. What was acknowledged survives, the cut reply says it was interrupted, and
// no tool call is made again.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exchange, nextChunk, replyText } from "../harness";
import { startChildHost } from "./child-host";

const running = new Set<ChildProcess>();
const folders: string[] = [];

afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function toolCalls(data: string): string[] {
  return readFileSync(join(data, "tool-calls.log"), "utf8").split("\n").filter(Boolean);
}

describe("the host killed in the middle of a reply", () => {
  it("keeps every acknowledged message and card, marks the cut reply interrupted, and replays no tool call", async () => {
    const data = mkdtempSync(join(tmpdir(), "mcp-chat-host-crash-"));
    folders.push(data);

    const first = await startChildHost(data, running);
    const before = await first.connect("tab-1");
    expect((await before.value("session:hello", {})).current).toBeNull();
    const greeting = await exchange(before, "chat-1", "hello", "message-hello");
    expect(greeting.reply.status).toBe("complete");
    const sent = await before.value("message:send", {
      chatId: "chat-1",
      text: "open the card",
      clientId: "message-open",
    });
    const opened = await nextChunk(before, "data-card");
    const output = await nextChunk(
      before,
      "tool-output-available",
      (chunk) => chunk.toolCallId === opened.toolCallId,
    );
    const result = { result: output.cardResult };
    // Two deltas of the step after the tool call: the reply is streaming when the host dies.
    await nextChunk(before, "text-delta", (chunk) => chunk.delta === "Partial ");
    await nextChunk(before, "text-delta", (chunk) => chunk.delta === "reply ");
    expect(toolCalls(data)).toEqual(["show"]);
    await first.kill();

    const second = await startChildHost(data, running);
    const after = await second.connect("tab-1");
    const hello = await after.value("session:hello", {
      conversationId: opened.card.conversationId!,
    });
    const current = hello.current!;
    expect(current.conversation.id).toBe(opened.card.conversationId);
    expect(current.running).toEqual([]);
    expect(current.messages.map((message) => [message.seq, message.role, message.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "complete"],
      [3, "user", "complete"],
      [4, "assistant", "interrupted"],
    ]);
    const [hello1, reply1, open, cut] = current.messages;
    expect(hello1?.id).toBe(greeting.messageId);
    expect(replyText(hello1!)).toBe("hello");
    expect(reply1?.id).toBe(greeting.reply.id);
    expect(replyText(reply1!)).toBe("Hi there.");
    expect(open?.id).toBe(sent.messageId);
    expect(replyText(open!)).toBe("open the card");
    // What was saved of the cut reply: the tool call's part with its card and its output (saved
    // when the call finished); the streamed text after it was never stored.
    expect(cut?.parts).toEqual([
      expect.objectContaining({
        type: "tool",
        toolCallId: "call-show",
        name: "show",
        source: "recorder",
        state: "output-available",
        input: {},
        instanceId: opened.card.instanceId,
      }),
    ]);
    expect(current.cards).toHaveLength(1);
    expect(current.cards[0]).toMatchObject({
      instanceId: opened.card.instanceId,
      tool: "show",
      messageId: cut?.id,
      result: result.result,
    });

    // The card comes back from its saved result; nothing is called again.
    const attached = await after.value("card:attach", { instanceId: opened.card.instanceId });
    expect(attached.restored).toBe(true);
    expect(attached.toolResult).toEqual(result.result);
    expect(toolCalls(data)).toEqual(["show"]);

    // The conversation goes on after the restart.
    const next = await exchange(after, "chat-1", "hello again", "message-again");
    expect(next.reply.status).toBe("complete");
    const reopened = await after.value("conversation:open", {
      conversationId: opened.card.conversationId!,
    });
    expect(reopened.messages.map((message) => message.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(toolCalls(data)).toEqual(["show"]);
    await second.kill();
  }, 60_000);
});
