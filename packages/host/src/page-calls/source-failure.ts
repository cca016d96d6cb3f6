import { errorMessage } from "@mcp-chat-host/protocol";
import { localErrorWireRules } from "../errors/to-wire-error";
import { HostError } from "../host-error";
import { isSourceError } from "../sources/source-error";

/**
 * What to tell the person when a source failed under a request (the server exited, stopped
 * answering, or could not be reached). A timed-out connection is closed by the connection layer
 * with the bare text "MCP connection ended: timeout", so that case gets a sentence of its own;
 * the other source errors already say what happened and what to do.
 *
 * @param error - what the source threw.
 * @param sourceKey - the source's key, named in the message.
 * @param sourceClosed - whether the source's connection has closed since.
 * @returns the message.
 */
export function sourceFailureMessage(
  error: unknown,
  sourceKey: string,
  sourceClosed: boolean,
): string {
  if (isSourceError(error) && error.code === "timeout" && sourceClosed) {
    return `${sourceKey} did not answer in time, so its connection was closed. Try again to reconnect.`;
  }
  return errorMessage(error);
}

/**
 * The error a card's page gets when its source failed under a request. The wire code follows
 * what happened (`timeout`, `closed`, `unavailable`), the message is
 * {@link sourceFailureMessage}'s, and it is retryable when the next call may work: the host opens
 * a new connection to a source that closed.
 *
 * @param error - what the source threw.
 * @param sourceKey - the card's source.
 * @param sourceClosed - whether the source's connection has closed since.
 * @param rpcCode - the JSON-RPC code the page's bridge answers with.
 * @returns the error to throw to the page.
 */
export function pageCallFailure(
  error: unknown,
  sourceKey: string,
  sourceClosed: boolean,
  rpcCode: number,
): HostError {
  const message = sourceFailureMessage(error, sourceKey, sourceClosed);
  if (!isSourceError(error)) return new HostError("unavailable", message, { rpcCode });
  // The same code and retryability as every other source failure on the wire.
  const wire = localErrorWireRules.source[error.code];
  return new HostError(wire.code, message, { rpcCode, retryable: wire.retryable === true });
}
