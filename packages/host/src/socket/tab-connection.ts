import { idSchema } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import type { Server, Socket } from "socket.io";
import type { ClusterNode } from "../cluster/cluster-node";
import type { RoutedSocket } from "../cluster/tab-router";
import type { SessionRegistry } from "../session-registry";
import { bindSessionEvents } from "./socket-handlers";

/** What {@link acceptTabs} needs: the live sessions, the cluster node, and the payload cap. */
export interface TabConnectionDeps {
  registry: SessionRegistry;
  cluster: ClusterNode;
  logger: Logger;
  maxPayloadBytes: number;
}

/**
 * Gives each socket that passed the handshake's checks its tab's session: the session is found
 * or made under `<sessionId>:<tabId>`, joined to the conversation's router (its events reach
 * every tab showing it, on whichever node), and every browser event is bound before the session
 * is ready, so none is lost while it starts.
 *
 * @param io - the socket.io server.
 * @param deps - the sessions, the cluster node, the logger and the payload cap.
 */
export function acceptTabs(io: Server, deps: TabConnectionDeps): void {
  const { registry, cluster, logger } = deps;
  const maxPayloadBytes = deps.maxPayloadBytes;
  io.on("connection", (socket: Socket) => {
    const { user, sessionId } = socket.data;
    const auth = socket.handshake.auth as Record<string, unknown> | undefined;
    const tab = idSchema.safeParse(auth?.["tabId"]);
    const key = `${sessionId}:${tab.success ? tab.data : "tab"}`;
    const ready = registry.obtain(key, user);
    const routed = ready.then((session) => {
      // One router per session: a conversation's events reach every tab showing it through
      // the conversation's room, on whichever node, also while this tab reconnects.
      const router = cluster.routerFor(session);
      session.pageHost = socket.handshake.headers.host;
      router.attach(socket as unknown as RoutedSocket);
      session.connect(router.emit);
      return router;
    });
    routed.catch(() => undefined);
    ready.then(
      () => undefined,
      (error: unknown) => {
        logger.error({ err: error }, "the session function failed");
        socket.emit("notice", {
          level: "error",
          message: "This session could not start; the server log says why.",
        });
        socket.disconnect(true);
      },
    );
    // Keep an unhandled rejection from crashing the process; handlers report it per request.
    ready.catch(() => undefined);
    bindSessionEvents(socket, ready, logger, { maxBytes: maxPayloadBytes });
    socket.on("card:teardown", (payload: unknown) => {
      routed
        .then((router) => router.closedHere(socket as unknown as RoutedSocket, payload))
        .catch(() => undefined);
    });
    socket.on("disconnect", () => {
      routed
        .then((router) => router.detach(socket as unknown as RoutedSocket))
        .catch(() => undefined);
      registry.release(key);
    });
  });
}
