import type { AuditEntry } from "@mcp-chat-host/protocol";
import { HostError } from "../host-error";
import type { AuditRecord, HostStore } from "../store/host-store";

/** How many entries `audit:list` answers unless it asks for fewer or more. */
const DEFAULT_CONVERSATION_AUDIT_LIMIT = 200;

/**
 * The audit of one of a person's conversations, for `audit:list`: every tool call its apps'
 * views made, newest first, with the verdict and how the person answered when they were asked.
 * Only the conversation's owner gets it; the session id and user id stay on the server.
 *
 * @param store - the store (its audit view writes queued rows first).
 * @param userId - who asks.
 * @param conversationId - which conversation.
 * @param limit - at most this many entries (default {@link DEFAULT_CONVERSATION_AUDIT_LIMIT}).
 * @returns the entries, newest first.
 * @throws {HostError} `not_found` when the conversation is missing or someone else's.
 */
export async function conversationAudit(
  store: Pick<HostStore, "getConversation" | "listAudit">,
  userId: string,
  conversationId: string,
  limit: number = DEFAULT_CONVERSATION_AUDIT_LIMIT,
): Promise<{ conversationId: string; entries: AuditEntry[] }> {
  const conversation = await store.getConversation(userId, conversationId);
  if (conversation === null) {
    throw new HostError("not_found", "That conversation doesn't exist, or isn't yours.");
  }
  const records = await store.listAudit({ conversationId, userId, limit });
  return { conversationId, entries: records.map(auditEntry) };
}

/** The wire form of an audit record: what the person may see of it. */
function auditEntry(record: AuditRecord): AuditEntry {
  const entry: AuditEntry = {
    id: record.id,
    at: record.at,
    instanceId: record.instanceId,
    source: record.source,
    tool: record.tool,
    verdict: record.verdict,
    durationMs: record.durationMs,
  };
  if (record.reason !== undefined) entry.reason = record.reason;
  if (record.approval !== undefined) entry.approval = { ...record.approval };
  return entry;
}
