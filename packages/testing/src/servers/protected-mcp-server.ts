// An MCP server behind OAuth, for tests: Streamable HTTP at `http://127.0.0.1:<port>/mcp`,
// Protected Resource Metadata (RFC 9728), a 401 with the metadata's URL and the default scopes
// for every request without a valid bearer token, tokens checked by the server itself (JWKS or
// introspection, then audience and expiry), and a 403 step-up on the tool that needs more scope.
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createTokenCheck, type RejectionReason, type TokenIssuer } from "./bearer-token-check";
import {
  createProtectedMcpServer,
  reportsScope,
  type ProtectedToolCall,
} from "./protected-mcp-tools";

/** Options of {@link startProtectedMcpServer}. */
export interface ProtectedMcpServerOptions {
  /** The authorization server (a running test one fits), which must know this resource. */
  authorizationServer: TokenIssuer;
  /** The scopes every request needs; default `["mcp:use"]`. */
  defaultScopes?: [string, ...string[]];
  /** The time in milliseconds, for token expiry; default `Date.now`. */
  clock?: () => number;
  /** The port; default any free one. */
  port?: number;
}

/** One request refused. */
export interface RejectedRequest {
  status: number;
  reason: RejectionReason;
}

/** A running protected MCP server. */
export interface RunningProtectedMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Its resource identifier (the same URL), the only `aud` it accepts. */
  readonly resource: string;
  /** `http://127.0.0.1:<port>/.well-known/oauth-protected-resource/mcp`. */
  readonly resourceMetadataUrl: string;
  readonly defaultScopes: readonly string[];
  /** Every scope it understands: the default ones and `reports:read`. */
  readonly scopesSupported: readonly string[];
  /** Every tool call answered, in order. */
  readonly calls: ProtectedToolCall[];
  /** Every request refused, in order. */
  readonly rejected: RejectedRequest[];
  stop(): Promise<void>;
}

function quoted(value: string): string {
  return value.replaceAll(/[\\"]/g, "\\$&");
}

async function webRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming as AsyncIterable<Buffer>) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = incoming.method ?? "GET";
  return new Request(`${origin}${incoming.url ?? "/"}`, {
    method,
    headers,
    ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
  });
}

async function writeResponse(outgoing: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(response.status, headers);
  // Streamed as it comes: an answer may be an SSE stream.
  const reader = response.body?.getReader();
  for (
    let part = await reader?.read();
    part !== undefined && !part.done;
    part = await reader?.read()
  ) {
    outgoing.write(part.value);
  }
  outgoing.end();
}

/**
 * Starts the protected MCP server on 127.0.0.1. Tools: `whoami` (answers `Signed in as <sub>`,
 * with the view `ui://protected/whoami.html`) and `list_reports` (needs `reports:read` too);
 * prompt `greeting` (argument `name`); resource `notes://welcome`.
 *
 * @param options - the authorization server, the default scopes, a clock, the port.
 * @returns the running server.
 */
export async function startProtectedMcpServer(
  options: ProtectedMcpServerOptions,
): Promise<RunningProtectedMcpServer> {
  const defaultScopes = options.defaultScopes ?? ["mcp:use"];
  const calls: ProtectedToolCall[] = [];
  const rejected: RejectedRequest[] = [];
  const handler = createMcpHandler(() =>
    createProtectedMcpServer(defaultScopes, calls, () =>
      rejected.push({ status: 403, reason: "scope" }),
    ),
  );
  let serve: (request: Request) => Promise<Response> = () =>
    Promise.resolve(new Response(null, { status: 503 }));
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const { port } = server.address() as AddressInfo;
      await writeResponse(
        outgoing,
        await serve(await webRequest(incoming, `http://127.0.0.1:${port}`)),
      );
    })().catch((error: unknown) => {
      outgoing.statusCode = 500;
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/mcp`;
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(url));
  const scopesSupported = [...new Set([...defaultScopes, reportsScope])];
  const metadata = {
    resource: url,
    authorization_servers: [options.authorizationServer.issuer],
    scopes_supported: scopesSupported,
    bearer_methods_supported: ["header"],
    resource_name: "Protected test MCP server",
  };
  const checkToken = createTokenCheck(options.authorizationServer, url, options.clock ?? Date.now);

  function refuse(status: 401 | 403, reason: RejectionReason, description: string): Response {
    rejected.push({ status, reason });
    if (reason === "missing") {
      // No token at all: the challenge names no error (RFC 6750 section 3.1).
      return new Response(null, {
        status,
        headers: {
          "WWW-Authenticate": `Bearer resource_metadata="${quoted(resourceMetadataUrl)}", scope="${quoted(defaultScopes.join(" "))}"`,
        },
      });
    }
    const code = status === 403 ? OAuthErrorCode.InsufficientScope : OAuthErrorCode.InvalidToken;
    return bearerAuthChallengeResponse(new OAuthError(code, description), {
      requiredScopes: [...defaultScopes],
      resourceMetadataUrl,
    });
  }

  async function authenticate(request: Request): Promise<AuthInfo | Response> {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
    if (match?.[1] === undefined) return refuse(401, "missing", "No bearer token.");
    const checked = await checkToken(match[1]);
    if (!checked.ok) {
      const descriptions: Record<RejectionReason, string> = {
        missing: "No bearer token.",
        inactive: "The token is not active.",
        expired: "The token has expired.",
        audience: "The token was not issued for this resource.",
        scope: "The token lacks a required scope.",
      };
      return refuse(401, checked.reason, descriptions[checked.reason]);
    }
    if (!defaultScopes.every((scope) => checked.authInfo.scopes.includes(scope))) {
      return refuse(403, "scope", "The token lacks a required scope.");
    }
    return { ...checked.authInfo, resourceMetadataUrl };
  }

  serve = async (request) => {
    const path = new URL(request.url).pathname;
    if (
      path === "/.well-known/oauth-protected-resource/mcp" ||
      path === "/.well-known/oauth-protected-resource"
    ) {
      return Response.json(metadata);
    }
    if (path !== "/mcp") return new Response("Not found.", { status: 404 });
    const authInfo = await authenticate(request);
    if (authInfo instanceof Response) return authInfo;
    return handler.fetch(request, { authInfo });
  };

  return {
    url,
    resource: url,
    resourceMetadataUrl,
    defaultScopes,
    scopesSupported,
    calls,
    rejected,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await handler.close();
    },
  };
}
