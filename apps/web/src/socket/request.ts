import {
  ACK_TIMEOUT_MS,
  type Ack,
  type ClientEventName,
  type ClientEventValues,
  type ClientPayload,
  isWireError,
  wireError,
} from "@mcp-chat-host/protocol";
import type { HostSocket } from "./host-socket";
import { RequestError } from "./request-error";

/** The error a request gets when the socket is not connected. */
export const notConnectedError = wireError(
  "unavailable",
  "Not connected to the server. Wait until the connection is back, then try again.",
  { retryable: true },
);

/** The error a request gets when the server did not answer in time. */
export const timedOutError = wireError(
  "timeout",
  "The server did not answer in time. Check the connection, then try again.",
  { retryable: true },
);

/** The error a request gets when the answer is not an acknowledgement. */
const malformedAnswerError = wireError(
  "internal",
  "The server sent an answer this page does not understand. Reload the page, then try again.",
);

/**
 * Sends one event and waits for its acknowledgement, with a timeout. Never throws: a lost
 * connection, a timeout or a malformed answer come back as `{ ok: false, error }`, so every caller
 * shows `error.message` where the action happened.
 *
 * @param socket - the page's socket.
 * @param event - the event name.
 * @param payload - the payload (the server validates it).
 * @param timeoutMs - how long to wait; {@link ACK_TIMEOUT_MS} by default.
 * @returns the acknowledgement.
 */
export async function request<E extends ClientEventName>(
  socket: HostSocket,
  event: E,
  payload: ClientPayload<E>,
  timeoutMs: number = ACK_TIMEOUT_MS,
): Promise<Ack<ClientEventValues[E]>> {
  // socket.io buffers emits while disconnected; failing at once tells the person now, not in 30 s.
  if (!socket.connected) return { ok: false, error: notConnectedError };
  let ack: unknown;
  try {
    ack = await socket.timeout(timeoutMs).emitWithAck(event, payload);
  } catch {
    return { ok: false, error: timedOutError };
  }
  if (isAck(ack)) return ack as Ack<ClientEventValues[E]>;
  return { ok: false, error: malformedAnswerError };
}

/**
 * {@link request}, for callers that throw: the acknowledged value, or a {@link RequestError}
 * carrying the same errors `request` returns.
 *
 * @returns the acknowledged value.
 * @throws {RequestError} when the request did not succeed.
 */
export async function requestValue<E extends ClientEventName>(
  socket: HostSocket,
  event: E,
  payload: ClientPayload<E>,
  timeoutMs: number = ACK_TIMEOUT_MS,
): Promise<ClientEventValues[E]> {
  const ack = await request(socket, event, payload, timeoutMs);
  if (!ack.ok) throw new RequestError(ack.error);
  return ack.value;
}

function isAck(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const record = value as { ok?: unknown; error?: unknown };
  if (record.ok === true) return "value" in record;
  return record.ok === false && isWireError(record.error);
}
