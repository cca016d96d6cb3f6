// The shared state of one session, handed to each of its services. It holds no behaviour: the
// services own their transitions, and `HostSession` builds the state and ends it.
import type { ServerEventName, ServerEvents } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import type { CardRegistry } from "./card-registry";
import type { Chat } from "./chat";
import type { ApprovalBroker } from "../gate/approval-broker";
import type { ElicitationBroker } from "../elicitation/elicitation-broker";
import type { SourceHooks } from "./source-hooks";
import type { SessionServices } from "./session-services";
import type { SessionSources } from "./session-sources";

/** Who is signed in to a session. */
export interface SessionUser {
  id: string;
  name?: string;
}

/** Sends server events to the session's browser tab, when it is connected. */
export type SessionEmitter = <E extends ServerEventName>(
  event: E,
  payload: ServerEvents[E],
) => void;

/** What the model was told at a chat's last turn, for the context inspector. */
export interface BuiltContext {
  text: string | null;
  builtAt: number;
  injected: boolean;
}

/** The state every service of one session shares. */
export interface SessionContext {
  /** The session's id. */
  readonly id: string;
  /** The signed-in person (with token auth, the operator). */
  readonly user: SessionUser;
  /** The session's logger (its lines carry the session and user ids). */
  readonly logger: Logger;
  /** What every session of the server shares: store, model, audit, clock, limits. */
  readonly services: SessionServices;
  /** The session's chats, by key. */
  readonly chats: Map<string, Chat>;
  /** The session's sources, by key. */
  readonly sources: SessionSources;
  /** The live cards and panes. */
  readonly cards: CardRegistry;
  /** The approval questions waiting for the person. */
  readonly broker: ApprovalBroker;
  /** The MCP servers' questions waiting for the person (elicitation). */
  readonly elicitations: ElicitationBroker;
  /** Every `onAppCall` hook registered in the session, by source (restored cards' chains). */
  readonly hooks: SourceHooks;
  /** What each chat's model was told at its last turn. */
  readonly lastContext: Map<string, BuiltContext>;
  /** The `Host` the tab's page came from (its sandboxes stay on the same site). */
  pageHost: string | undefined;
  /**
   * Sends an event to this tab. Every server event of the session passes here and nowhere else,
   * so wrapping it observes them all (tests) or fans some out to the person's other tabs.
   */
  emit: SessionEmitter;
}
