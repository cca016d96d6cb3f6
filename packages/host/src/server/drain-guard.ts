import type { IncomingMessage } from "node:http";

/** socket.io's `allowRequest` hook. */
type AllowRequest = (
  request: IncomingMessage,
  callback: (error: string | null | undefined, success: boolean) => void,
) => void;

/** What a tab that tries to connect to a draining node is told (it reconnects, elsewhere). */
const drainingRefusal = "This server is stopping; connect again to reach another one.";

/**
 * Wraps socket.io's `allowRequest`: while the node drains, every new handshake is refused (the
 * client retries, and the balancer, whose `/readyz` probe fails, sends it to another node);
 * otherwise `next` decides.
 *
 * @param draining - whether the node is draining now.
 * @param next - the check that runs otherwise (Origin and Host).
 * @returns the hook.
 */
export function refuseWhileDraining(draining: () => boolean, next: AllowRequest): AllowRequest {
  return (request, callback) => {
    if (draining()) {
      callback(drainingRefusal, false);
      return;
    }
    next(request, callback);
  };
}
