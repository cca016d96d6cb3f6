import { wireError, type WireError } from "@mcp-chat-host/protocol";

/** The message a person sees when the server failed in a way it didn't expect. */
export const INTERNAL_ERROR_MESSAGE =
  "Something went wrong on the server. Try again; if it keeps failing, the server log has the details.";

/**
 * The wire error for a failure the server did not expect: code `internal`, a generic message,
 * never a local message or a stack (those go to the server log).
 *
 * @returns a fresh error object, ready to send.
 */
export function internalWireError(): WireError {
  return wireError("internal", INTERNAL_ERROR_MESSAGE);
}
