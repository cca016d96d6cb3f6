import type { CardDescriptor, ChatInfo, SessionSnapshot } from "@mcp-chat-host/protocol";
import { create } from "zustand";

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

/** The session as the page knows it. */
export interface SessionState {
  status: ConnectionStatus;
  /** Why the socket is not connected, to show in the banner. */
  statusMessage: string | null;
  sessionId: string | null;
  user: SessionSnapshot["user"];
  chats: ChatInfo[];
  /** The session's panes (cards outside any conversation), shown in the side panel. */
  panes: CardDescriptor[];
  model: string | null;
  notices: Notice[];
  /** Sets the connection status and the banner's explanation. */
  setStatus(status: ConnectionStatus, message?: string | null): void;
  /** Replaces the session's facts from a snapshot. */
  applySnapshot(snapshot: SessionSnapshot): void;
  /** Adds a pane the server opened. */
  addPane(pane: CardDescriptor): void;
  /** Shows a notice; returns its id. */
  addNotice(level: Notice["level"], message: string): number;
  /** Hides a notice. */
  dismissNotice(id: number): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

const initial = {
  status: "connecting" as ConnectionStatus,
  statusMessage: null,
  sessionId: null,
  user: null,
  chats: [] as ChatInfo[],
  panes: [] as CardDescriptor[],
  model: null,
  notices: [] as Notice[],
};

let nextNoticeId = 1;

/** The session store: connection status, chats, panes, the model's name, notices. */
export const useSessionStore = create<SessionState>()((set) => ({
  ...initial,
  setStatus(status, message = null) {
    set({ status, statusMessage: message });
  },
  applySnapshot(snapshot) {
    set({
      sessionId: snapshot.sessionId,
      user: snapshot.user,
      chats: snapshot.chats,
      panes: snapshot.panes,
      model: snapshot.model,
    });
  },
  addPane(pane) {
    set((state) => ({
      panes: [...state.panes.filter((known) => known.instanceId !== pane.instanceId), pane],
    }));
  },
  addNotice(level, message) {
    const id = nextNoticeId++;
    // Keep the last few: a flood of notices must not bury the page.
    set((state) => ({ notices: [...state.notices, { id, level, message }].slice(-5) }));
    return id;
  },
  dismissNotice(id) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
  },
  reset() {
    set({ ...initial });
  },
}));
