import { errorMessage, pageRpcCodes } from "@mcp-chat-host/protocol";
import { ProtocolError } from "@modelcontextprotocol/client";
import { RequestError } from "../socket/request-error";

/**
 * The JSON-RPC error a view's request is answered with when the server refused or failed it:
 * the server's `rpcCode` (e.g. -32602 when the gate refused a call), else -32603, and the
 * server's message.
 *
 * @param error - whatever the request threw.
 * @returns a `ProtocolError`, which the bridge turns into the JSON-RPC error response.
 */
export function toPageError(error: unknown): ProtocolError {
  if (error instanceof RequestError) {
    return new ProtocolError(error.rpcCode ?? pageRpcCodes.internalError, error.message);
  }
  return new ProtocolError(pageRpcCodes.internalError, errorMessage(error));
}
