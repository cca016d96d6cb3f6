// The sign-in request of the control socket: `mcp-chat-host sign-in` asks the running server for
// a new one-time sign-in URL, so a second browser (or one whose cookie is gone) needs no restart.
import { z } from "zod";
import type { CliOptions } from "./cli-options";
import {
  type ControlHandler,
  type ControlLogger,
  type ControlSocket,
  openControlSocket,
} from "./control-socket";

/** The one request the control socket answers. */
const signInRequestSchema = z.strictObject({ command: z.literal("sign-in") });

/** Why the server gave no URL. */
const signInRefusalSchema = z.enum(["no_sign_in_tokens", "bad_request", "failed"]);

/** The server's answer: a URL, or a sentence saying why there is none. */
export const signInAnswerSchema = z.discriminatedUnion("ok", [
  z.strictObject({ ok: z.literal(true), url: z.url({ protocol: /^https?$/ }) }),
  z.strictObject({ ok: z.literal(false), reason: signInRefusalSchema, message: z.string() }),
]);

/** The server's answer to a sign-in request. */
export type SignInAnswer = z.infer<typeof signInAnswerSchema>;

/** What the sign-in handler needs of the server. */
export interface SignInControlOptions {
  /** How the server signs people in; only the token mode has sign-in URLs. */
  auth: CliOptions["auth"];
  /** Mints a new one-time sign-in URL (the host server's `signInUrl`). */
  signInUrl: () => string;
  /** Told (without the URL) each time a URL is handed out. */
  logger: ControlLogger & { info(details: object, message: string): void };
}

/**
 * Answers the control socket's requests: `{"command":"sign-in"}` gets a new one-time URL in the
 * token mode, and a refusal saying sign-in tokens aren't used with a trusted header.
 *
 * @returns the handler for {@link openControlSocket}.
 */
export function signInHandler(options: SignInControlOptions): ControlHandler {
  return (request): SignInAnswer => {
    if (!signInRequestSchema.safeParse(request).success) {
      return {
        ok: false,
        reason: "bad_request",
        message: 'This server answers only {"command":"sign-in"} on its control socket.',
      };
    }
    if (options.auth.mode === "oidc") {
      return {
        ok: false,
        reason: "no_sign_in_tokens",
        message: `This server signs people in with the OpenID provider ${options.auth.issuer} (--oidc-issuer), so sign-in tokens aren't used: open the server's address and sign in there.`,
      };
    }
    if (options.auth.mode !== "token") {
      return {
        ok: false,
        reason: "no_sign_in_tokens",
        message: `This server takes the user from the ${options.auth.header} header set by the authenticating proxy (--trusted-header), so sign-in tokens aren't used: open the server's address through that proxy.`,
      };
    }
    const url = options.signInUrl();
    options.logger.info({}, "Handed out a new sign-in URL over the control socket.");
    return { ok: true, url };
  };
}

/**
 * Opens the data folder's control socket for sign-in requests (see control-socket.ts).
 *
 * @param data - the data folder, already private.
 * @returns the socket, or null when it could not be opened (the reason is logged).
 */
export function openSignInControl(
  data: string,
  options: SignInControlOptions,
): Promise<ControlSocket | null> {
  return openControlSocket(data, signInHandler(options), options.logger);
}
