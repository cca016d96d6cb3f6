import type { IncomingMessage } from "node:http";
import type {
  ClientToServerEvents,
  ServerToClientEvents,
  WireError,
} from "@mcp-chat-host/protocol";
import type { McpUiResourceCsp, McpUiResourcePermissions } from "@mcp-chat-host/sandbox";
import type { Express, RequestHandler, Router } from "express";
import type { Logger } from "pino";
import type { Server as SocketServer } from "socket.io";
import type { AuthenticatedSession, AuthOptions } from "./auth";
import type { SharedTokenStore } from "./one-time-tokens";
import type { SharedSignInStates } from "./oidc-routes";
import type { ServerSignInRoutesPort } from "./server-sign-in-routes";
import type { SandboxPortMemory, SandboxRequestHandler } from "./sandbox-listener-options";
import type { SandboxPlacement } from "./sandbox-placement";
import type { HostSocketData } from "./socket-guard";

/** Options of `createHttpLayer` (of `./http-layer`). */
export interface HttpLayerOptions {
  /** Address to bind (default `127.0.0.1`). Anything not loopback needs `auth` set explicitly. */
  host?: string | undefined;
  /** Who is who (default `{ mode: "token" }`). */
  auth?: AuthOptions | undefined;
  /**
   * The origin people use when it is not `http://127.0.0.1:<port>` (behind a TLS proxy:
   * `https://chat.example.com`). Added to the allow-lists, used in printed URLs; https makes the
   * cookie `Secure` and the socket `wss:`.
   */
  publicOrigin?: string | undefined;
  /** Extra page origins accepted on the socket and HTTP routes (`http://localhost:5173` for vite dev). */
  allowedOrigins?: readonly string[] | undefined;
  /** Extra `Host` header values answered to (`name:port`). */
  allowedHosts?: readonly string[] | undefined;
  /** The built web app's folder (with `index.html`). */
  webRoot?: string | undefined;
  /** Largest socket message and HTTP JSON body, in bytes (default `limits.maxPayloadBytes`, 1 MiB). */
  maxHttpBufferSize?: number | undefined;
  /** Deployment sandbox origins (`https://{source}.sandbox.example.com`); no local listeners then. */
  sandboxOriginTemplate?: string | undefined;
  /**
   * With `sandboxOriginTemplate`: the port on which this node serves the sandbox itself, for the
   * template's host names (by `Host`), so a deployment needs only DNS, TLS and the balancer.
   * None: something else serves the sandbox there. View URLs are signed with a key derived from
   * `sessionSecret`, so every node of a cluster accepts the others' URLs.
   */
  sandboxListenerPort?: number | undefined;
  /**
   * The key the sandbox's proxy URLs (signed here, for each card) and view URLs are signed with:
   * 32 bytes or more. Needed only when something else serves `sandboxOriginTemplate`'s origins:
   * give that server the same key. Default: derived from `sessionSecret`, else random per process.
   * Never logged.
   */
  sandboxSigningKey?: string | Uint8Array | undefined;
  /** Remembers the sandbox port across restarts, so views keep their saved state. */
  sandboxPorts?: SandboxPortMemory | undefined;
  /** Key that signs session cookies; persist one so sign-ins survive a restart (default: random). */
  sessionSecret?: string | Uint8Array | undefined;
  /** Lifetime of a sign-in in seconds (default 7 days). */
  sessionMaxAgeSeconds?: number | undefined;
  /** Structured logs (default: silent). */
  logger?: Logger | undefined;
  /** Answers sandbox listener requests (default: `handleSandboxRequest` of `@mcp-chat-host/sandbox`). */
  handleSandboxRequest?: SandboxRequestHandler | undefined;
  /** How long `close()` lets open HTTP requests finish before cutting them, in ms (default 5,000). */
  closeTimeoutMs?: number | undefined;
  /**
   * What `GET /readyz` reports (the database, Redis, draining); `ok: false` answers 503. None:
   * ready whenever listening.
   */
  readiness?: (() => Promise<{ ok: boolean } & Record<string, unknown>>) | undefined;
  /**
   * Answers `GET /metrics` before the Host, Origin and auth checks (it checks its own token).
   * None: `/metrics` is 404.
   */
  metricsRoute?: RequestHandler | undefined;
  /** Clock in ms since the epoch, for cookie and proxy URL lifetimes (tests inject one). */
  now?: (() => number) | undefined;
  /**
   * Turns what a route threw into the error its JSON answer carries: the engine's one mapping
   * (`toWireError` of `errors/`). This layer knows no local errors, so without it every route
   * failure is `internal`.
   */
  toWireError?: ((error: unknown) => WireError) | undefined;
}

/** The socket.io server, typed with the wire contract. */
export type HostSocketServer = SocketServer<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  HostSocketData
>;

/** Addresses of a listening layer. */
export interface HttpLayerUrls {
  /**
   * The host's origin (`http://127.0.0.1:8787`).
   * @throws {HttpLayerError} `not_listening` before `listen()` resolved.
   */
  readonly host: string;
  /**
   * The latest one-time sign-in URL (`http://127.0.0.1:8787/?token=…`), null outside the token mode.
   * @throws {HttpLayerError} `not_listening` before `listen()` resolved.
   */
  readonly signIn: string | null;
  /**
   * Where a card of a source is shown: the sandbox proxy's origin and the card's proxy URL.
   * @param sourceKey - the source's unique name.
   * @param pageHost - the `Host` of the page that will frame it (its origin may embed the proxy).
   * @param params - the view's declared `csp` and `permissions`.
   * @throws {HttpLayerError} `not_listening` before `listen()` resolved; `bad_option` for a page
   *   on another machine without `sandboxOriginTemplate`.
   */
  sandboxPlacement(
    sourceKey: string,
    pageHost: string | undefined,
    params: {
      csp?: McpUiResourceCsp | undefined;
      permissions?: McpUiResourcePermissions | undefined;
    },
  ): Promise<SandboxPlacement>;
}

/** The HTTP and socket shell of the server. */
export interface HttpLayer {
  /** The Express app (checks, auth, routes, web app are already mounted). */
  readonly app: Express;
  /**
   * Routes added here run after the Host, Origin and auth checks and before the web app. In the
   * token mode they see only requests that carry the session's binding
   * (`x-mch-session-binding`, from the host page's storage), so a copied cookie reaches none.
   */
  readonly routes: Router;
  /** The socket.io server; handshakes are already checked and authenticated. */
  readonly io: HostSocketServer;
  readonly urls: HttpLayerUrls;
  /**
   * Starts listening.
   * @param options - port (default 0: any free port) and bind address (default the constructor's).
   * @returns the port and the host's origin.
   * @throws {HttpLayerError} `already_listening`, `unsafe_bind`; the listen error (EADDRINUSE).
   */
  listen(options?: { port?: number; host?: string }): Promise<{ port: number; url: string }>;
  /** Closes sockets, the HTTP server and the sandbox listeners; bounded by `closeTimeoutMs`. */
  close(): Promise<void>;
  /**
   * Recognises the user of a request. In the token mode the request must carry the session's
   * binding (the `x-mch-session-binding` header) as well as the cookie.
   * @returns the session, or null when the request is not authenticated.
   */
  authenticate(request: IncomingMessage): Promise<AuthenticatedSession | null>;
  /**
   * Mints a new one-time sign-in URL (an operator command).
   * @throws {HttpLayerError} `bad_option` outside the token mode; `not_listening` before listen.
   */
  signInUrl(): string;
  /**
   * Keeps the one-time sign-in tokens in a store shared by every node (minted ones included), so
   * a token is spent once across the cluster.
   */
  shareTokens(store: SharedTokenStore): Promise<void>;
  /**
   * Keeps the OpenID Connect sign-ins in progress in the store (every node's), so a flow started
   * on one node can finish on another. Until it is called, `/auth/login` answers 503.
   */
  shareSignInStates(store: SharedSignInStates): void;
  /** The service that finishes people's sign-ins to remote MCP servers (`/oauth/*`). */
  useServerSignIn(port: ServerSignInRoutesPort): void;
  /**
   * Mints a one-time sign-in URL, resolving once it is saved where every node can spend it.
   * @throws {HttpLayerError} as {@link HttpLayer.signInUrl}; the store's error when it can't save.
   */
  mintSignInUrl(): Promise<string>;
  /**
   * Starts a drain: `/readyz` answers 503 with `draining: true` and new socket handshakes are
   * refused, while the listener stays open (so a balancer's probe is answered, not refused) and
   * open sockets keep working until `close()`.
   */
  stopAccepting(): void;
}
