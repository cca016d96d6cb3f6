import { pageRpcCodes } from "@mcp-chat-host/protocol";
import { HostError } from "../host-error";

/** What a page of a card that is not live in the session is told. */
export const NOT_RUNNING = "This app is no longer running.";

/**
 * The error a card's page receives: a plain sentence, the JSON-RPC code its bridge answers with,
 * and the wire code the browser switches on.
 */
export function pageError(
  message: string,
  rpc: keyof typeof pageRpcCodes,
  code: "refused" | "not_found" | "unavailable" | "conflict" | "rate_limited" = "refused",
  options: { retryable?: boolean } = {},
): HostError {
  return new HostError(code, message, { rpcCode: pageRpcCodes[rpc], ...options });
}
