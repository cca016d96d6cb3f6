// What the browser's events are acknowledged with, and socket.io's typing of them.
import type { Ack } from "./ack";
import type { AttachReply } from "./card-records";
import type { ClientEventName, ClientPayload } from "./client-events";
import type {
  ConversationPage,
  ConversationSnapshot,
  ConversationSummary,
  SessionSnapshot,
} from "./conversation-records";
import type { AuditEntry, ContextInspection } from "./inspection-records";
import type { ChatPrompt, ChatResource, ServerStatus } from "./server-records";

/** What each browser event's acknowledgement carries when it succeeds. */
export interface ClientEventValues {
  "session:hello": SessionSnapshot;
  "conversation:list": ConversationSummary[];
  "conversation:create": ConversationSnapshot;
  "conversation:open": ConversationSnapshot;
  "conversation:messages": ConversationPage;
  "conversation:rename": ConversationSummary;
  "conversation:delete": { deleted: true };
  "conversation:export": Record<string, unknown>;
  "conversation:import": ConversationSummary;
  "message:send": { messageId: string; duplicate: boolean };
  "turn:stop": { stopped: boolean };
  "turn:retry": { messageId: string };
  "card:attach": AttachReply;
  "card:call-tool": Record<string, unknown>;
  "card:read-resource": Record<string, unknown>;
  "card:list-resources": Record<string, unknown>;
  "card:list-resource-templates": Record<string, unknown>;
  "card:update-context": { reportedAt: number };
  /** Where an app's message went; for `drop`, why (for the card's log). */
  "card:post-message": { action: "compose" | "submit" | "drop"; reason?: string };
  "card:log": Record<string, never>;
  "card:teardown": Record<string, never>;
  "approval:answer": Record<string, never>;
  "context:inspect": ContextInspection;
  "audit:list": { conversationId: string; entries: AuditEntry[] };
  "servers:list": ServerStatus[];
  /** `authorizationUrl`: open it for the person; `connected`: the server needed no sign-in. */
  "server:connect": { authorizationUrl: string } | { connected: true };
  "server:disconnect": { disconnected: true; revoked: boolean };
  /** `allowed`: the person may add servers; `patterns`: the addresses the operator allows. */
  "connectors:policy": { allowed: boolean; patterns: string[] };
  "connector:add": ServerStatus;
  "connector:remove": { removed: true };
  "elicitation:answer": Record<string, never>;
  "prompts:list": ChatPrompt[];
  "prompt:get": { text: string };
  "resources:list": ChatResource[];
}

/** socket.io's typing of the events the browser sends (every one has an acknowledgement). */
export type ClientToServerEvents = {
  [E in ClientEventName]: (
    payload: ClientPayload<E>,
    ack: (ack: Ack<ClientEventValues[E]>) => void,
  ) => void;
};
