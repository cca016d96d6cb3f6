import type { ApprovalDecision } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useApprovalsStore } from "../state/approvals-store";

/**
 * Answers an approval request (`approval:answer`). On success, or when the server no longer knows
 * the request (answered in another tab, withdrawn), it leaves the queue; any other failure stays
 * on screen with the request, so the person can answer again.
 *
 * @param socket - the page's socket.
 * @param approvalId - the request.
 * @param decision - the person's answer.
 * @param reason - why the person refused (only with `refuse`; blank is left out).
 * @returns true when the answer was taken.
 */
export async function answerApproval(
  socket: HostSocket,
  approvalId: string,
  decision: ApprovalDecision,
  reason?: string,
): Promise<boolean> {
  const approvals = useApprovalsStore.getState;
  if (approvals().answering !== null) return false;
  approvals().setAnswering(approvalId);
  approvals().setError(null);
  const trimmed = reason?.trim() ?? "";
  const ack = await request(
    socket,
    "approval:answer",
    decision === "refuse" && trimmed !== ""
      ? { approvalId, decision, reason: trimmed }
      : { approvalId, decision },
  );
  approvals().setAnswering(null);
  if (ack.ok || ack.error.code === "not_found") {
    approvals().settle(approvalId);
    return ack.ok;
  }
  approvals().setError(`Your answer did not reach the server: ${ack.error.message}`);
  return false;
}
