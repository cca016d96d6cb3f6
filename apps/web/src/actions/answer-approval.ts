import type { ApprovalDecision } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";

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
  const approvals = useHostStore.getState;
  if (approvals().answeringApproval !== null) return false;
  approvals().setAnsweringApproval(approvalId);
  approvals().setApprovalError(null);
  const trimmed = reason?.trim() ?? "";
  const ack = await request(
    socket,
    "approval:answer",
    decision === "refuse" && trimmed !== ""
      ? { approvalId, decision, reason: trimmed }
      : { approvalId, decision },
  );
  approvals().setAnsweringApproval(null);
  if (ack.ok || ack.error.code === "not_found") {
    approvals().settleApproval(approvalId);
    return ack.ok;
  }
  approvals().setApprovalError(`Your answer did not reach the server: ${ack.error.message}`);
  return false;
}
