// A saved conversation of Notes cards, written straight into the SQLite file before the host
// starts, as real turns leave them: one user message and one reply with the card per note. The
// only way such cards come back is the restore path (the page re-read, the saved input and
// result handed to the view), so no tool may be called when the conversation is reopened.
import { openStore, type JsonObject } from "@mcp-chat-host/host";

/** The token sign-in's user when none is configured. */
const OPERATOR_ID = "operator";

/** The instance id of the saved card number `index` (from 1). */
export function savedCardId(index: number): string {
  return `saved-card-${index}`;
}

/** The text saved in the card number `index`. */
export function savedNoteText(index: number): string {
  return `Saved note number ${index}.`;
}

/**
 * Writes a conversation of `count` Notes cards.
 *
 * @returns the conversation's id.
 */
export async function writeNotesConversation(databaseFile: string, count: number): Promise<string> {
  const store = await openStore(`sqlite:${databaseFile}`);
  try {
    await store.ensureUser(OPERATOR_ID);
    const conversation = await store.createConversation(OPERATOR_ID, { title: "Many notes" });
    for (let index = 1; index <= count; index += 1) {
      const args: JsonObject = { text: savedNoteText(index) };
      await store.appendMessage({
        conversationId: conversation.id,
        chatId: "chat-1",
        role: "user",
        parts: [{ type: "text", text: `/call open-notes ${JSON.stringify(args)}` }],
      });
      const reply = await store.appendMessage({
        conversationId: conversation.id,
        chatId: "chat-1",
        role: "assistant",
        parts: [
          {
            type: "tool",
            toolCallId: `call-${index}`,
            name: "open-notes",
            state: "output-available",
            input: args,
            output: "The notes are open (4 words).",
            instanceId: savedCardId(index),
          },
          { type: "text", text: "open-notes returned: The notes are open (4 words)." },
        ],
      });
      await store.saveCard({
        instanceId: savedCardId(index),
        conversationId: conversation.id,
        chatId: "chat-1",
        kind: "card",
        source: "notes",
        tool: "open-notes",
        arguments: args,
        result: {
          content: [{ type: "text", text: "The notes are open (4 words)." }],
          structuredContent: { text: args["text"] ?? "", words: 4, saved: false },
        },
        title: "Open notes",
        checked: true,
        messageId: reply.id,
      });
    }
    return conversation.id;
  } finally {
    await store.close();
  }
}
