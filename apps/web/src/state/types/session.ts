import type { ChatInfo, SessionSnapshot } from "@mcp-chat-host/protocol";

/**
 * Where the page's socket is:
 * - `connecting`: the first connection, before `session:hello` answered;
 * - `connected`: the snapshot is applied;
 * - `reconnecting`: the connection dropped and socket.io is retrying;
 * - `signed-out`: the server refused the handshake (the sign-in expired or is missing);
 * - `disconnected`: the server closed the connection and will not be retried without the person.
 */
export type ConnectionStatus =
  "connecting" | "connected" | "reconnecting" | "signed-out" | "disconnected";

/** A message from the server that belongs to no request. */
export interface Notice {
  id: number;
  level: "info" | "warning" | "error";
  message: string;
}

/**
 * The session as the page knows it: the connection, who is signed in, the chats and the model.
 * The session's panes are cards (the cards slice), not a list of their own.
 */
export interface SessionSlice {
  status: ConnectionStatus;
  /** Why the socket is not connected, to show in the banner. */
  statusMessage: string | null;
  sessionId: string | null;
  user: SessionSnapshot["user"];
  chats: ChatInfo[];
  model: string | null;
  /** Whether the person can sign out (the OpenID Connect mode). */
  signOut: boolean;
  notices: Notice[];
  /** Sets the connection status and the banner's explanation. */
  setStatus(status: ConnectionStatus, message?: string | null): void;
  /** Shows a notice; returns its id. */
  addNotice(level: Notice["level"], message: string): number;
  /** Hides a notice. */
  dismissNotice(id: number): void;
}
