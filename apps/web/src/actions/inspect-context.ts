import type { ContextInspection } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";

/**
 * Asks the server what the model was told about the apps at a chat's last turn
 * (`context:inspect`) and records it for the inspector.
 *
 * @returns the inspection, or the error message to show in the inspector.
 */
export async function inspectContext(
  socket: HostSocket,
  chatId: string,
): Promise<{ ok: true; value: ContextInspection } | { ok: false; message: string }> {
  const ack = await request(socket, "context:inspect", { chatId });
  if (!ack.ok) return { ok: false, message: ack.error.message };
  useHostStore.getState().recordContext(ack.value);
  return { ok: true, value: ack.value };
}
