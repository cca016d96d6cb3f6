import type { IncomingMessage, ServerResponse } from "node:http";
import type { SandboxOrigins, SigningKey } from "@mcp-chat-host/sandbox";
import type { Logger } from "pino";
import type { OriginPolicy } from "./origin-check";
import type { SandboxRequestHandler } from "./sandbox-listener-options";

/** What {@link answerSandboxRequest} needs from the sandbox listener. */
export interface SandboxAnswerContext {
  /** The host's allow-lists (available once the host listens). */
  policy: () => OriginPolicy | undefined;
  /** Answers every request on the sandbox listener. */
  handleRequest: SandboxRequestHandler;
  /** The key proxy and view URLs are signed with. */
  signingKey: SigningKey;
  /** The clock for proxy URL expiry (default `Date.now`). */
  now?: (() => number) | undefined;
  logger: Logger;
}

/**
 * Answers one request on a sandbox listener: only the sandbox's own names on its port, only GET
 * and HEAD, with the sandbox package's page; never reads cookies.
 *
 * @param origins - the origins the listener serves.
 * @param context - the host's policy, the request handler, the signing key and a logger.
 * @returns when the answer is sent.
 */
export async function answerSandboxRequest(
  request: IncomingMessage,
  response: ServerResponse,
  origins: SandboxOrigins,
  context: SandboxAnswerContext,
): Promise<void> {
  const policy = context.policy();
  const host = request.headers.host?.toLowerCase();
  // Only the sandbox's own names on this port: never the host's names, never a rebound name.
  if (
    policy === undefined ||
    host === undefined ||
    origins.classify(`${new URL(origins.proxyOrigin).protocol}//${host}`) === undefined
  ) {
    plain(response, 421, "This sandbox listener does not answer to that host name.");
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD");
    plain(response, 405, "The sandbox only answers GET.");
    return;
  }
  try {
    const url = new URL(request.url ?? "/", `${new URL(origins.proxyOrigin).protocol}//${host}`);
    const answer = await context.handleRequest(url, {
      hostOrigins: [...policy.origins],
      originTemplate: origins.template,
      signingKey: context.signingKey,
      method: request.method,
      now: context.now,
    });
    const refusal = answer.rejected.find(
      (entry) => entry.code === "not_signed" || entry.code === "expired",
    );
    if (refusal !== undefined) {
      // The query is left out: it is the proxy URL someone sent, signature and all.
      context.logger.warn(
        { code: refusal.code, path: url.pathname, origin: request.headers.origin },
        `The sandbox refused a proxy URL (${refusal.code}).`,
      );
    } else if (answer.rejected.length > 0) {
      context.logger.warn(
        { rejected: answer.rejected, path: url.pathname },
        "The sandbox dropped CSP or permission values of a card.",
      );
    }
    response.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    if (!response.hasHeader("X-Content-Type-Options"))
      response.setHeader("X-Content-Type-Options", "nosniff");
    response.end(request.method === "HEAD" ? undefined : answer.body);
  } catch (error) {
    context.logger.error({ err: error }, "The sandbox request handler failed.");
    if (!response.headersSent)
      plain(response, 500, "The sandbox page could not be produced; see the server log.");
    else response.destroy();
  }
}

/** A short plain-text answer. */
function plain(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "text/plain; charset=utf-8");
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  response.end(text);
}
