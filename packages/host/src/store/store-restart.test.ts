// Both stores, closed and opened again on the same data (a restart of the server or node).
import { expect, it } from "vitest";
import { describeEachStore } from "../../test/store-kinds";

describeEachStore((kind) => {
  it("marks replies still streaming at a restart as interrupted, and only those", async () => {
    const spec = await kind.freshSpec();
    const before = await kind.open(spec);
    const conversation = await before.createConversation("ada");
    const question = await before.appendMessage({
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: "hello" }],
    });
    const cut = await before.appendMessage({
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "assistant",
      parts: [{ type: "text", text: "Hel" }],
      status: "streaming",
    });
    const stopped = await before.appendMessage({
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "assistant",
      parts: [],
      status: "stopped",
    });
    // A crash: the process goes away without finishing the reply.
    await before.close();

    const after = await kind.open(spec);
    expect(await after.markInterruptedReplies()).toBe(1);
    expect(await after.markInterruptedReplies()).toBe(0);
    const statuses = Object.fromEntries(
      (await after.listMessages(conversation.id)).map((message) => [message.id, message.status]),
    );
    expect(statuses).toEqual({
      [question.id]: "complete",
      [cut.id]: "interrupted",
      [stopped.id]: "stopped",
    });
    expect((await after.listMessages(conversation.id))[1]!.parts).toEqual([
      { type: "text", text: "Hel" },
    ]);
    await after.close();
  });
});
