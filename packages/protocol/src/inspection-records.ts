// What the person can inspect about a conversation: its apps' audited tool calls and the model context.
import type { ApprovalDecision } from "./approval-records";

/** How the question to the person about an app's call was settled (see {@link AuditEntry}). */
export interface AuditEntryApproval {
  /**
   * `person`: the person answered this question; `remembered`: an answer they gave earlier, for
   * the card or the conversation, covered it; `nobody`: the card closed or the session ended first.
   */
  answeredBy: "person" | "remembered" | "nobody";
  /** The answer (for `remembered`, the remembered one); absent for `nobody`. */
  answer?: ApprovalDecision;
  /** What the answer covers: this call, the card's calls of this tool, or the conversation's. */
  scope?: "call" | "card" | "conversation";
  /** When the answer was given (ms since the epoch). */
  answeredAt?: number;
}

/** One tool call an app's view made in a conversation, as the host audited it. */
export interface AuditEntry {
  id: string;
  /** When the call was made (ms since the epoch). */
  at: number;
  /** The card whose view made the call. */
  instanceId: string;
  /** The app's source (the MCP server's name). */
  source: string;
  /** The tool it called. */
  tool: string;
  /** `allowed` (it ran), `refused` (by the rate limit, the visibility check, a policy or the person), `failed` (it ran and failed). */
  verdict: "allowed" | "refused" | "failed";
  /** Why it was refused or failed. */
  reason?: string;
  durationMs: number;
  /** Present when the person was asked about the call. */
  approval?: AuditEntryApproval;
}

/** What the model was told about the open apps at a chat's last turn. */
export interface ContextInspection {
  chatId: string;
  /** The exact text `host.context()` produced, or null when no app reported. */
  text: string | null;
  /** When it was built (ms since the epoch), or null before the first turn. */
  builtAt: number | null;
  /** Whether that text was sent to the model (false when the chat has `context: false`). */
  injected: boolean;
}
