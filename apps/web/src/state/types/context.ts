import type { ContextInspection } from "@mcp-chat-host/protocol";

/** What the model was told about the apps, per chat, as last reported by the server. */
export interface ContextSlice {
  contextByChat: Record<string, ContextInspection>;
  /** Records a chat's context (`context:built`, or the answer to `context:inspect`). */
  recordContext(inspection: ContextInspection): void;
}
