import {
  ACK_TIMEOUT_MS,
  isWireError,
  wireError,
  type Ack,
  type ClientEventName,
  type ClientEventValues,
  type ClientPayload,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "@mcp-chat-host/protocol";
import type { Socket } from "socket.io-client";
import { CardRequestError } from "./card-request-error";

/** The page's socket, typed with the wire contract. */
export type CardSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Sends one event and waits for its acknowledgement (`{ ok, value | error }`).
 *
 * @param socket - the page's socket.
 * @param event - the event name.
 * @param payload - its payload, as the protocol types it.
 * @param timeoutMs - how long to wait; default {@link ACK_TIMEOUT_MS}.
 * @returns the acknowledged value.
 * @throws {CardRequestError} with the server's error, with `timeout` when no acknowledgement
 *   came in time, or `internal` when the reply has not the envelope's shape.
 */
export async function requestAck<E extends ClientEventName>(
  socket: CardSocket,
  event: E,
  payload: ClientPayload<E>,
  timeoutMs: number = ACK_TIMEOUT_MS,
): Promise<ClientEventValues[E]> {
  // socket.io's mapped typings cannot follow a generic event name; the payload and the reply are
  // typed by this function's own signature instead.
  const timed = socket.timeout(timeoutMs);
  const emit = timed.emitWithAck as unknown as (
    event: E,
    payload: ClientPayload<E>,
  ) => Promise<Ack<ClientEventValues[E]>>;
  let ack: Ack<ClientEventValues[E]>;
  try {
    ack = await emit.call(timed, event, payload);
  } catch {
    throw new CardRequestError(
      wireError(
        "timeout",
        "The server did not answer in time; check the connection and try again.",
        { retryable: true },
      ),
    );
  }
  if (ack !== null && typeof ack === "object" && ack.ok === true) return ack.value;
  if (ack !== null && typeof ack === "object" && ack.ok === false && isWireError(ack.error)) {
    throw new CardRequestError(ack.error);
  }
  throw new CardRequestError(
    wireError(
      "internal",
      "The server sent a reply this page does not understand; reload the page.",
    ),
  );
}
