// What the person and the log are told when a chat's source cannot be attached: its server would
// not start, exited, timed out, or (a remote server) asked for authorization. One sentence naming
// the server, never the cause chain: the connection layer wraps a failure in errors that repeat
// its message, and a logger that joins a chain of causes would print the sentence three times.
import { errorMessage } from "@mcp-chat-host/protocol";
import { SignInRequired } from "../oauth/sign-in-errors";
import { isSourceError } from "./source-error";

/** Why a source could not be attached, in the words of its outermost error. */
export interface SourceAttachFailure {
  /** The source's key. */
  source: string;
  /** Whether the server asked for authorization (HTTP 401). */
  needsAuthorization: boolean;
  /** One sentence for the person and the log: which server, what happened, what follows. */
  message: string;
  /**
   * The text of an error no source made (a bug), for the log only; the message then says the
   * detail is in the log. Absent for the failures a source describes itself.
   */
  detail?: string;
}

/** Most errors followed down a cause chain (a chain can be a loop). */
const CAUSE_LIMIT = 10;

/**
 * Describes a source that could not be opened or could not list its tools.
 *
 * @param source - the source's key.
 * @param error - what opening or listing threw.
 * @returns the failure, with a message that names the server.
 */
export function sourceAttachFailure(source: string, error: unknown): SourceAttachFailure {
  const signIn = signInRequiredIn(error);
  if (signIn !== undefined) return { source, needsAuthorization: true, message: signIn.message };
  if (asksForAuthorization(error)) {
    return {
      source,
      needsAuthorization: true,
      message: `The server "${source}" refused the host's credentials (HTTP 401), so its tools are not available in this chat. Tell the operator: its configured headers need a valid token.`,
    };
  }
  if (!isSourceError(error)) {
    return {
      source,
      needsAuthorization: false,
      message: `The server "${source}" could not be attached, so its tools are not available in this chat: something went wrong on the server. Reload the page to try again; if it keeps failing, the server log has the details.`,
      detail: errorMessage(error),
    };
  }
  const why = error.message.replace(/[\s.]+$/, "");
  return {
    source,
    needsAuthorization: false,
    message: `The server "${source}" could not be attached, so its tools are not available in this chat: ${why}.`,
  };
}

/** The person's sign-in a failure asks for, found down its cause chain. */
export function signInRequiredIn(error: unknown): SignInRequired | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < CAUSE_LIMIT && current instanceof Error; depth += 1) {
    if (current instanceof SignInRequired) return current;
    current = current.cause;
  }
  return undefined;
}

/** Whether an error, or one of its causes, is an HTTP 401 answer. */
function asksForAuthorization(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < CAUSE_LIMIT && current instanceof Error; depth += 1) {
    const { code, status, statusCode } = current as {
      code?: unknown;
      status?: unknown;
      statusCode?: unknown;
    };
    if (code === 401 || status === 401 || statusCode === 401) return true;
    if (
      current.name === "UnauthorizedError" ||
      /\bHTTP 401\b|\b401 Unauthorized\b/i.test(current.message)
    ) {
      return true;
    }
    current = current.cause;
  }
  return false;
}
