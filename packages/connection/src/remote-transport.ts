// Transports for remote servers: Streamable HTTP first, and the older HTTP+SSE transport when the
// server answers the first POST with a 4xx status, as the MCP specification's backwards
// compatibility section and the SDK's client guide describe.
import {
  SSEClientTransport,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type FetchLike,
  type Transport,
} from "@modelcontextprotocol/client";

/** Which HTTP transport a remote session uses. */
export type RemoteTransportKind = "streamable-http" | "sse";

/** Where a remote server is, and the headers to send it. */
export interface RemoteEndpoint {
  url: string;
  /** Sent with every request (the configuration's `headers`, already interpolated). */
  headers?: Readonly<Record<string, string>>;
  /**
   * The person's bearer token for this server and what to do on a 401 (refresh, or say that
   * the person must sign in), for a server that signs people in with OAuth.
   */
  authProvider?: AuthProvider | undefined;
  /**
   * The fetch every request of the transport goes through (a person's connector: one whose
   * connections are pinned to the address its name resolved to when it was checked).
   */
  fetch?: FetchLike | undefined;
}

/**
 * Creates an unstarted transport of the given kind.
 *
 * @param kind - Streamable HTTP or the legacy SSE transport.
 * @param endpoint - the URL and headers.
 * @returns the transport.
 */
function createRemoteTransport(kind: RemoteTransportKind, endpoint: RemoteEndpoint): Transport {
  const url = new URL(endpoint.url);
  const requestInit: RequestInit = { headers: { ...endpoint.headers } };
  // A 403 insufficient_scope is thrown to the caller, who asks the person for the wider scope:
  // the transport must never start an authorization flow on its own.
  const auth = endpoint.authProvider === undefined ? {} : { authProvider: endpoint.authProvider };
  const fetch = endpoint.fetch === undefined ? {} : { fetch: endpoint.fetch };
  return kind === "streamable-http"
    ? new StreamableHTTPClientTransport(url, {
        requestInit,
        ...auth,
        ...fetch,
        onInsufficientScope: "throw",
      })
    : new SSEClientTransport(url, { requestInit, ...auth, ...fetch });
}

/**
 * Whether a failed Streamable HTTP connect means "this server only speaks the SSE transport":
 * the first POST was answered with a 4xx status other than 401/403 (typically 404 or 405).
 * Authentication failures are not a reason to try another transport.
 *
 * @param error - what the Streamable HTTP connect threw.
 * @returns true when falling back to SSE is right.
 */
export function shouldFallBackToSse(error: unknown): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  const status = error.status;
  return status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/**
 * Connects over Streamable HTTP and, when the server refuses that with a 4xx status, over SSE.
 * `connect` is called with a fresh transport each time; it must build a fresh client too,
 * because a client cannot be reused after a failed connect.
 *
 * @param endpoint - the URL and headers.
 * @param connect - starts a client on the transport; resolves with what the caller keeps.
 * @returns what `connect` resolved with, and the transport kind that worked.
 * @throws whatever the last `connect` threw.
 */
export async function connectRemote<Connected>(
  endpoint: RemoteEndpoint,
  connect: (transport: Transport, kind: RemoteTransportKind) => Promise<Connected>,
): Promise<{ connected: Connected; kind: RemoteTransportKind }> {
  try {
    const connected = await connect(
      createRemoteTransport("streamable-http", endpoint),
      "streamable-http",
    );
    return { connected, kind: "streamable-http" };
  } catch (error) {
    if (!shouldFallBackToSse(error)) throw error;
  }
  const connected = await connect(createRemoteTransport("sse", endpoint), "sse");
  return { connected, kind: "sse" };
}
