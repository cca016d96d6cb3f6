import { pageRpcCodes, type WireError, type WireErrorCode } from "@mcp-chat-host/protocol";
import { ProtocolError } from "@modelcontextprotocol/client";

/**
 * A card's request to the server that did not succeed: the server's {@link WireError}, or a
 * lost acknowledgement (`timeout`). Its `message` is written for the person.
 */
export class CardRequestError extends Error {
  /** The stable code of the failure (the server's, or `timeout` when no answer came). */
  readonly code: WireErrorCode;
  /** Whether trying again may work. */
  readonly retryable: boolean;
  /** The JSON-RPC code the view should get, when the server named one. */
  readonly rpcCode: number | undefined;

  constructor(error: WireError) {
    super(error.message);
    this.name = "CardRequestError";
    this.code = error.code;
    this.retryable = error.retryable;
    this.rpcCode = error.rpcCode;
  }
}

/**
 * The JSON-RPC error a view's request is answered with when the server refused or failed it:
 * the server's `rpcCode` (e.g. -32602 when the gate refused a call), else -32603, and the
 * server's message.
 *
 * @param error - whatever the request threw.
 * @returns a `ProtocolError`, which the bridge turns into the JSON-RPC error response.
 */
export function toPageError(error: unknown): ProtocolError {
  if (error instanceof CardRequestError) {
    return new ProtocolError(error.rpcCode ?? pageRpcCodes.internalError, error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProtocolError(pageRpcCodes.internalError, message);
}

/**
 * The message of anything thrown, for the card's log and fallback text.
 *
 * @returns the error's message, or its string form.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
