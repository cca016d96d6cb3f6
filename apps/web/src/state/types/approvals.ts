import type { ApprovalRequest } from "@mcp-chat-host/protocol";

/** The approval requests waiting for the person, oldest first; the dialog shows the first. */
export interface ApprovalsSlice {
  approvalQueue: ApprovalRequest[];
  /** The id of the request being answered, while its acknowledgement is pending. */
  answeringApproval: string | null;
  /** Why answering the first request failed, to show in the dialog. */
  approvalError: string | null;
  /** Queues a request (`approval:request`); a request already queued is not added twice. */
  enqueueApproval(request: ApprovalRequest): void;
  /** Removes a request: answered here, or settled elsewhere (`approval:settled`). */
  settleApproval(approvalId: string): void;
  /** Marks a request as being answered (or none). */
  setAnsweringApproval(approvalId: string | null): void;
  /** Shows or clears the dialog's error. */
  setApprovalError(message: string | null): void;
}
