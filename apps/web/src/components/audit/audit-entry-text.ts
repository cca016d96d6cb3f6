import type { AuditEntry, AuditEntryApproval } from "@mcp-chat-host/protocol";

const answers: Record<NonNullable<AuditEntryApproval["answer"]>, string> = {
  "allow-once": "allowed once",
  "allow-card": "allowed for this card",
  "allow-conversation": "allowed for this conversation",
  refuse: "refused",
};

/**
 * What happened to a call, in words.
 *
 * @returns "ran", "refused: <reason>" or "ran and failed: <reason>".
 */
export function verdictText(entry: AuditEntry): string {
  const reason = entry.reason === undefined ? "" : `: ${entry.reason}`;
  if (entry.verdict === "allowed") return "ran";
  if (entry.verdict === "refused") return `refused${reason}`;
  return `ran and failed${reason}`;
}

/**
 * Who answered the question about a call, and how.
 *
 * @returns "You answered: allowed once", "Your earlier answer covered it: allowed for this
 *   card", "You were asked; nobody answered …", or null when nobody was asked.
 */
export function approvalText(approval: AuditEntryApproval | undefined): string | null {
  if (approval === undefined) return null;
  if (approval.answeredBy === "nobody") {
    return "You were asked; nobody answered (the card closed or the session ended first).";
  }
  const answer = approval.answer === undefined ? "answered" : answers[approval.answer];
  return approval.answeredBy === "remembered"
    ? `Your earlier answer covered it: ${answer}.`
    : `You answered: ${answer}.`;
}
