// What the person reads when signing in to a server does not work, one sentence each: the kinds
// of failure, and the error a connection carries when the person must sign in first.
import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  IssuerMismatchError,
  OAuthError,
} from "@modelcontextprotocol/client";
import { OAuthUrlRefused } from "./oauth-url-policy";

/** Why a server's connection needs the person: never signed in, the grant ended, more scope. */
export type SignInNeed = "never" | "ended" | "scope";

/**
 * Thrown by the person's bearer provider when the server asks for a sign-in the host cannot give
 * without the person: it ends the connect (or the request) and puts the server in "needs sign-in".
 */
export class SignInRequired extends Error {
  override readonly name = "SignInRequired";

  constructor(
    readonly server: string,
    readonly need: SignInNeed,
    /** For `scope`: the scopes the server asked for. */
    readonly scope?: string,
  ) {
    super(signInNeedSentence(server, need, scope));
  }
}

/** The sentence of a server that needs the person to sign in. */
export function signInNeedSentence(server: string, need: SignInNeed, scope?: string): string {
  switch (need) {
    case "never":
      return `Sign in to "${server}" to use its tools: open Servers and choose Connect.`;
    case "ended":
      return `Your sign-in to "${server}" has ended (its authorization server would not renew it). Connect it again in Servers to use its tools.`;
    case "scope":
      return `"${server}" needs more access for that${scope === undefined ? "" : ` (${scope.slice(0, 200)})`}. In Servers, disconnect it and connect again to grant it.`;
  }
}

/** How finishing a sign-in failed. */
export type SignInFailureKind =
  | "unknown-state"
  | "already-used"
  | "denied"
  | "provider-error"
  | "issuer-mismatch"
  | "refused-url"
  | "exchange-failed"
  | "unavailable";

/** A sign-in that could not start or finish, with the sentence for the person. */
export class ServerSignInError extends Error {
  override readonly name = "ServerSignInError";

  constructor(
    readonly kind: SignInFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const START_AGAIN = "Start again from Servers in the chat.";

/**
 * The failure of a sign-in's callback, in words.
 *
 * @param kind - what went wrong.
 * @param server - the server's name, when known.
 * @param detail - for `provider-error`: the authorization server's error code.
 * @returns the error with its sentence.
 */
export function signInFailure(
  kind: SignInFailureKind,
  server?: string,
  detail?: string,
): ServerSignInError {
  const name = server === undefined ? "the server" : `"${server}"`;
  const sentences: Record<SignInFailureKind, string> = {
    "unknown-state": `This sign-in is not one this host started, or it has expired. ${START_AGAIN}`,
    "already-used": "This sign-in was already finished. Go back to the chat.",
    denied: `You did not allow access to ${name}, so nothing was connected.`,
    "provider-error": `The authorization server of ${name} ended the sign-in with the error "${(detail ?? "unknown").replace(/[^\w.-]/g, "").slice(0, 60)}". ${START_AGAIN}`,
    "issuer-mismatch": `The answer to this sign-in came from another authorization server than the one ${name} uses, so it was refused. ${START_AGAIN}`,
    "refused-url": `The sign-in to ${name} was refused because its authorization server is not one this host will use. Tell the operator of that server.`,
    "exchange-failed": `The authorization server of ${name} would not complete the sign-in. ${START_AGAIN}`,
    unavailable: `The sign-in could not be kept because the host's database is not reachable. Try again in a moment.`,
  };
  return new ServerSignInError(kind, sentences[kind]);
}

/**
 * Turns what the SDK's `auth()` threw into a sign-in failure (the detail goes to the log only).
 *
 * @param error - what was thrown.
 * @param server - the server's name.
 * @returns the failure.
 */
export function signInFailureOf(error: unknown, server: string): ServerSignInError {
  if (error instanceof ServerSignInError) return error;
  if (error instanceof OAuthUrlRefused) {
    return new ServerSignInError("refused-url", error.message, { cause: error });
  }
  const field = refusedMetadataField(error);
  if (field !== undefined) {
    return new ServerSignInError(
      "refused-url",
      `The server "${server}" gave authorization metadata that this host will not use (its ${field} is not a safe address), so you cannot sign in to it. Tell the operator of that server.`,
      { cause: error },
    );
  }
  if (error instanceof InsecureTokenEndpointError) {
    const failure = signInFailure("refused-url", server);
    return new ServerSignInError("refused-url", failure.message, { cause: error });
  }
  if (error instanceof IssuerMismatchError || error instanceof AuthorizationServerMismatchError) {
    const failure = signInFailure("issuer-mismatch", server);
    return new ServerSignInError("issuer-mismatch", failure.message, { cause: error });
  }
  if (error instanceof OAuthError && error.code === "access_denied") {
    const failure = signInFailure("denied", server);
    return new ServerSignInError("denied", failure.message, { cause: error });
  }
  const failure = signInFailure("exchange-failed", server);
  return new ServerSignInError("exchange-failed", failure.message, { cause: error });
}

/**
 * The metadata field the SDK's own checks refused (its schemas refuse `javascript:`, `data:` and
 * `vbscript:` endpoints before this host's policy sees them), when that is what failed.
 */
function refusedMetadataField(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== "ZodError") return undefined;
  const issues = (error as { issues?: { path?: unknown[] }[] }).issues ?? [];
  for (const issue of issues) {
    const name = issue.path?.find(
      (part): part is string => typeof part === "string" && /_(endpoint|uri|url)s?$/.test(part),
    );
    if (name !== undefined) return name.replace(/[^a-z_]/g, "").slice(0, 60);
  }
  return undefined;
}
