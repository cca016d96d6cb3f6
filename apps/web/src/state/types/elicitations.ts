import type { ElicitationRequest } from "@mcp-chat-host/protocol";

/** The questions MCP servers ask the person, oldest first; the dialog shows the first. */
export interface ElicitationsSlice {
  elicitationQueue: ElicitationRequest[];
  /** The id of the question being answered, while its acknowledgement is pending. */
  answeringElicitation: string | null;
  /** Why answering the first question failed (a wrong form, a lost connection), to show in the dialog. */
  elicitationError: string | null;
  /** Queues a question (`elicitation:request`); one already queued is not added twice. */
  enqueueElicitation(request: ElicitationRequest): void;
  /** Removes a question: answered here, or settled elsewhere (`elicitation:settled`). */
  settleElicitation(elicitationId: string): void;
  /** Marks a question as being answered (or none). */
  setAnsweringElicitation(elicitationId: string | null): void;
  /** Shows or clears the dialog's error. */
  setElicitationError(message: string | null): void;
}
