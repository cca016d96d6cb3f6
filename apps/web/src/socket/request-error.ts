import type { WireError, WireErrorCode } from "@mcp-chat-host/protocol";

/**
 * A request to the server that did not succeed, thrown by `requestValue`: the server's
 * {@link WireError}, or the page's own when the socket was not connected, no acknowledgement came
 * in time, or the answer was not an acknowledgement. Its `message` is written for the person.
 */
export class RequestError extends Error {
  /** The stable code of the failure. */
  readonly code: WireErrorCode;
  /** Whether trying again may work. */
  readonly retryable: boolean;
  /** The JSON-RPC code a card's view should get, when the server named one. */
  readonly rpcCode: number | undefined;

  constructor(error: WireError) {
    super(error.message);
    this.name = "RequestError";
    this.code = error.code;
    this.retryable = error.retryable;
    this.rpcCode = error.rpcCode;
  }
}
