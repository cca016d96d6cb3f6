import { isWireError } from "@mcp-chat-host/protocol";
import { listServers } from "./actions/list-servers";
import { reattachCards } from "./state/page-cards";
import { defaultLiveViewCap, pageLiveViews } from "./cards/live-view-budget";
import { applySessionSnapshot, leaveConversation } from "./state/apply-snapshot";
import { useHostStore } from "./state/host-store";
import { conversationIdFromHash } from "./url/conversation-hash";
import { onFreshSnapshotWanted } from "./socket/delta-order";
import type { HostSocket } from "./socket/host-socket";
import { request } from "./socket/request";

/** A running session: stop it, or say hello again (the banner's "Try again"). */
export interface SessionLifecycle {
  /** Connects again when disconnected, or asks for the snapshot again when connected. */
  retry(): void;
  /** Removes the listeners. */
  stop(): void;
}

/**
 * Asks the server for the session snapshot (`session:hello`) and applies it. The conversation to
 * open is the one already open, else the one in the URL hash; when the server no longer knows it,
 * the page asks again without it.
 *
 * @param socket - the page's socket.
 * @param locationHash - reads the current URL hash.
 * @returns true when the snapshot was applied.
 */
async function sayHello(socket: HostSocket, locationHash: () => string): Promise<boolean> {
  const wanted =
    useHostStore.getState().currentConversationId ?? conversationIdFromHash(locationHash());
  let ack = await request(
    socket,
    "session:hello",
    wanted === null ? {} : { conversationId: wanted },
  );
  if (!ack.ok && wanted !== null && ack.error.code === "not_found") {
    useHostStore.setState({ currentConversationId: null });
    useHostStore
      .getState()
      .addNotice("warning", "That conversation no longer exists; a new one is open instead.");
    ack = await request(socket, "session:hello", {});
  }
  if (!ack.ok) {
    useHostStore.getState().setStatus("disconnected", ack.error.message);
    return false;
  }
  await leaveConversation(ack.value.current?.conversation.id ?? null);
  // The operator's cap on live card views, before the snapshot's cards mount.
  pageLiveViews.setCap(ack.value.liveViews ?? defaultLiveViewCap);
  applySessionSnapshot(ack.value);
  useHostStore.getState().setStatus("connected");
  // The person's servers: `servers:state` tells only of changes after this.
  void listServers(socket);
  // After a reconnect the cards still on the page attach again: a restarted server restores them
  // only when they do (their views keep running; nothing is called).
  await reattachCards();
  return true;
}

/**
 * Follows the socket's connection: on every (re)connect, says hello and replaces the page's state
 * from the snapshot; on a drop, shows "reconnecting"; on a refused handshake, shows how to sign in.
 *
 * @param socket - the page's socket.
 * @param locationHash - reads the current URL hash (injected by tests).
 * @returns the lifecycle's controls.
 */
export function startSessionLifecycle(
  socket: HostSocket,
  locationHash: () => string = () => window.location.hash,
): SessionLifecycle {
  const session = useHostStore.getState;
  const onConnect = () => {
    void sayHello(socket, locationHash);
  };
  const onDisconnect = (reason: string) => {
    if (reason === "io client disconnect") return;
    if (reason === "io server disconnect") {
      session().setStatus(
        "disconnected",
        "The server closed the connection. Select Try again to reconnect.",
      );
      return;
    }
    session().setStatus("reconnecting", "The connection to the server was lost. Reconnecting…");
  };
  const onConnectError = (error: Error & { data?: unknown }) => {
    if (isWireError(error.data)) {
      // A refusal by the server's middleware: socket.io does not retry these by itself.
      const status = error.data.code === "unauthorized" ? "signed-out" : "disconnected";
      session().setStatus(status, error.data.message);
      return;
    }
    const status = session().status === "connecting" ? "connecting" : "reconnecting";
    session().setStatus(status, "The server cannot be reached. Retrying…");
  };
  // A tab that missed updates (a gap in a reply's deltas, or the server's link to the other
  // nodes came back) asks for a fresh snapshot; one request at a time.
  let refreshing = false;
  const onFreshSnapshot = () => {
    if (refreshing || !socket.connected) return;
    refreshing = true;
    void sayHello(socket, locationHash).finally(() => {
      refreshing = false;
    });
  };
  const stopFreshSnapshots = onFreshSnapshotWanted(onFreshSnapshot);
  socket.on("connect", onConnect);
  socket.on("disconnect", onDisconnect);
  socket.on("connect_error", onConnectError);
  if (socket.connected) onConnect();
  return {
    retry() {
      if (socket.connected) void sayHello(socket, locationHash);
      else {
        session().setStatus("reconnecting", "Reconnecting…");
        socket.connect();
      }
    },
    stop() {
      stopFreshSnapshots();
      socket.off("connect", onConnect);
      socket.off("disconnect", onDisconnect);
      socket.off("connect_error", onConnectError);
    },
  };
}
