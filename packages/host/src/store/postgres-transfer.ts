import { buildConversationDocument } from "./conversation-export";
import type { ConversationDocument } from "./host-store";
import { postgresTables as tables, type Queryable } from "./postgres-tables";

/**
 * The user's conversation as a document, read on one connection (the caller's transaction makes
 * it a snapshot); null when it is not theirs or missing.
 */
export async function exportConversationIn(
  db: Queryable,
  userId: string,
  id: string,
  exportedAt: number,
): Promise<ConversationDocument | null> {
  const conversation = await tables.findConversation(db, userId, id);
  if (conversation === null) return null;
  return buildConversationDocument(
    conversation,
    await tables.listMessages(db, id),
    await tables.listCards(db, id),
    await tables.listApprovals(db, id),
    exportedAt,
  );
}

/**
 * Writes a validated document's messages (renumbered from 1 in `seq` order) and cards into the
 * conversation just created for it, inside the caller's transaction. A reply the file says was
 * streaming becomes `interrupted`: no process is finishing it. The file's approvals are never
 * written: only the person at this host may give those answers.
 */
export async function importDocumentIn(
  db: Queryable,
  conversationId: string,
  document: ConversationDocument,
): Promise<void> {
  const messages = [...document.messages].sort((first, second) => first.seq - second.seq);
  for (const [index, message] of messages.entries()) {
    await tables.insertMessage(db, {
      ...message,
      conversationId,
      seq: index + 1,
      status: message.status === "streaming" ? "interrupted" : message.status,
    });
  }
  await tables.setLastSeq(db, conversationId, messages.length);
  for (const card of document.cards) {
    await tables.upsertCard(db, { ...card, conversationId });
  }
}
