import type { AuditEntry } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";

/**
 * Asks the server for the audit of one of the person's conversations (`audit:list`): every tool
 * call its apps' views made, newest first.
 *
 * @returns the entries, or the error message to show in the panel.
 */
export async function listAudit(
  socket: HostSocket,
  conversationId: string,
): Promise<{ ok: true; entries: AuditEntry[] } | { ok: false; message: string }> {
  const ack = await request(socket, "audit:list", { conversationId });
  if (!ack.ok) return { ok: false, message: ack.error.message };
  return { ok: true, entries: ack.value.entries };
}
