import {
  clientEventSchemas,
  type ServerEventName,
  type ServerEvents,
} from "@mcp-chat-host/protocol";
import type { HostSocketServer } from "../server/http-layer";
import type { HostSession, SessionEmitter } from "../host-session";
import type { LiveReplies } from "./live-replies";
import {
  conversationEvents,
  conversationOf,
  conversationRoom,
  instanceOf,
  userRoom,
} from "./rooms";

/** The socket of a tab, as the router uses it. */
export interface RoutedSocket {
  join(room: string): unknown;
  leave(room: string): unknown;
  emit(event: string, payload: unknown): unknown;
  /** Everyone in the room but this socket. */
  to(room: string): { emit(event: string, payload: unknown): unknown };
}

/** What the person's other tabs are told when a card is closed in one of them. */
const CLOSED_IN_ANOTHER_TAB = "This app was closed in another tab.";

/** What every router of a node shares. */
export interface RouterContext {
  io: HostSocketServer;
  liveReplies: LiveReplies;
  /** False while Redis is down: rooms then reach this node's tabs only. */
  crossNodeUp(): boolean;
}

/**
 * Where a session's events go. Conversation events (messages, a reply's chunks, cards, turn state)
 * go to the conversation's room, so every tab showing it gets them on whichever node it is, and
 * the list of conversations goes to the user's room; everything else (approvals, notices, the
 * composer, context, panes) goes to the session's own tab only. One router lives as long as its
 * session, so other tabs keep getting a reply's events while this tab reconnects.
 *
 * A reply's `text-delta` chunks carry their `offset` (the turn counts it), so a tab that read a
 * snapshot skips what it already has and notices what it missed.
 */
export class TabRouter {
  #socket: RoutedSocket | null = null;
  #joined: string | null = null;

  /**
   * @param session - the tab's session.
   * @param context - the node's socket server, live replies and Redis state.
   */
  constructor(
    private readonly session: HostSession,
    private readonly context: RouterContext,
  ) {}

  /** The emitter the session is connected with. */
  readonly emit: SessionEmitter = (event, payload) => {
    this.#route(event, payload);
  };

  /** The tab's socket connected (or reconnected): it joins its user's and conversation's rooms. */
  attach(socket: RoutedSocket): void {
    this.#socket = socket;
    this.#joined = null;
    socket.join(userRoom(this.session.user.id));
    this.follow(this.session.conversations.shown()?.id ?? null);
  }

  /** The tab's socket went away. */
  detach(socket: RoutedSocket): void {
    if (this.#socket === socket) {
      this.#socket = null;
      this.#joined = null;
    }
  }

  /**
   * The tab now shows another conversation (or none): its socket leaves the old room and joins
   * the new one, before the conversation's snapshot is read, so nothing written after the read
   * is missed.
   */
  follow(conversationId: string | null): void {
    const socket = this.#socket;
    if (!socket || this.#joined === conversationId) return;
    if (this.#joined !== null) socket.leave(conversationRoom(this.#joined));
    if (conversationId !== null) socket.join(conversationRoom(conversationId));
    this.#joined = conversationId;
  }

  /**
   * The tab closed a card (its `card:teardown`, reason `closed`): the person's other tabs showing
   * the conversation close it too.
   */
  closedHere(socket: RoutedSocket, payload: unknown): void {
    const parsed = clientEventSchemas["card:teardown"].safeParse(payload);
    const conversationId = this.session.conversations.shown()?.id;
    if (!parsed.success || parsed.data.reason !== "closed" || conversationId === undefined) return;
    socket.to(conversationRoom(conversationId)).emit("card:closed", {
      instanceId: parsed.data.instanceId,
      reason: CLOSED_IN_ANOTHER_TAB,
    });
  }

  #route<E extends ServerEventName>(event: E, payload: ServerEvents[E]): void {
    if (event === "conversations:changed") {
      this.#broadcast(userRoom(this.session.user.id), event, payload);
      return;
    }
    if (conversationEvents.has(event) && !this.#aboutPane(event, payload)) {
      const conversationId =
        conversationOf(event, payload) ?? this.session.conversations.shown()?.id;
      if (conversationId !== undefined) {
        if (conversationId === this.session.conversations.shown()?.id) this.follow(conversationId);
        this.context.liveReplies.track(event, payload, this.session);
        this.#broadcast(conversationRoom(conversationId), event, payload);
        return;
      }
    }
    this.#socket?.emit(event, payload);
  }

  #broadcast(room: string, event: string, payload: unknown): void {
    const target = this.context.crossNodeUp()
      ? this.context.io.to(room)
      : this.context.io.local.to(room);
    (target.emit as (event: string, payload: unknown) => void)(event, payload);
  }

  /** A pane's events stay with its own tab: panes belong to the session, not the conversation. */
  #aboutPane<E extends ServerEventName>(event: E, payload: ServerEvents[E]): boolean {
    if (event === "card:opened")
      return (payload as ServerEvents["card:opened"]).card.kind === "pane";
    const instanceId = instanceOf(event, payload);
    return (
      instanceId !== null && this.session.context.cards.get(instanceId)?.descriptor.kind === "pane"
    );
  }
}
