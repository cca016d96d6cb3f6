import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type ClientToServerEvents,
  limits,
  sessionBinding,
  type ServerToClientEvents,
  type WireError,
  type WireErrorCode,
  wireError,
} from "@mcp-chat-host/protocol";
import {
  handleSandboxRequest,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from "@mcp-chat-host/sandbox";
import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type Response,
  type Router,
} from "express";
import { type Logger, pino } from "pino";
import { Server as SocketServer } from "socket.io";
import { internalWireError } from "../errors/internal-error";
import { type AuthenticatedSession, type AuthOptions, Authenticator } from "./auth";
import { assertBindAllowed, DEFAULT_BIND_ADDRESS } from "./bind-policy";
import { HttpLayerError } from "./http-layer-error";
import { OneTimeTokens } from "./one-time-tokens";
import { OriginPolicy } from "./origin-check";
import { boundOnly, notFound, requireAuth } from "./require-auth";
import {
  type SandboxPlacement,
  type SandboxPortMemory,
  type SandboxRequestHandler,
  SandboxListeners,
} from "./sandbox-listeners";
import { baseSecurityHeaders, hostPageCsp } from "./security-headers";
import { SessionCookies } from "./session-cookie";
import { type HostSocketData, handshakeOriginCheck, socketAuth } from "./socket-guard";
import { tokenExchange } from "./token-exchange";
import { webApp } from "./web-app";

/** Options of {@link createHttpLayer}. */
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
  /** Clock in ms since the epoch, for cookie lifetimes (tests inject one). */
  now?: (() => number) | undefined;
  /**
   * Turns what a route threw into the error its JSON answer carries: the engine's one mapping
   * (`toWireError` of `errors/`). This layer knows no local errors, so without it every route
   * failure is `internal`.
   */
  toWireError?: ((error: unknown) => WireError) | undefined;
}

/** The HTTP status of a route's answer for each wire code. */
const httpStatusOf: { readonly [Code in WireErrorCode]: number } = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  too_large: 413,
  rate_limited: 429,
  busy: 409,
  refused: 403,
  conflict: 409,
  unavailable: 503,
  timeout: 504,
  closed: 503,
  storage: 503,
  internal: 500,
};

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
}

/**
 * Builds the server's HTTP and socket shell with its security: Host and Origin checks, auth
 * (one-time token → cookie, trusted header, or a function), security headers, `/healthz`, the
 * built web app, the socket.io server (WebSocket only, size cap, authenticated handshakes) and
 * one sandbox listener for every source's views. Nothing listens until `listen()`.
 *
 * WebSocket only, no long-polling: browsers always send `Origin` on a WebSocket handshake but not
 * on same-origin polling GETs, so the Origin check stays strict. The web client must connect with
 * `transports: ["websocket"]`.
 *
 * @param options - see {@link HttpLayerOptions}.
 * @returns the layer.
 * @throws {HttpLayerError} `unsafe_bind` for a non-loopback address without auth; `bad_option`
 *   for malformed origins, proxies or sandbox template.
 */
export function createHttpLayer(options: HttpLayerOptions = {}): HttpLayer {
  const logger = options.logger ?? pino({ level: "silent" });
  const toWireError = options.toWireError ?? internalWireError;
  let bindAddress = options.host ?? DEFAULT_BIND_ADDRESS;
  assertBindAllowed(bindAddress, options.auth);
  const auth: AuthOptions = options.auth ?? { mode: "token" };
  const maxHttpBufferSize = options.maxHttpBufferSize ?? limits.maxPayloadBytes;
  const policyOptions = {
    publicOrigin: options.publicOrigin,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
  };
  // Built once now so malformed origins fail at construction, not at listen().
  const provisional = new OriginPolicy({ port: 0, bindAddress, ...policyOptions });
  // Only a public origin can be https: the layer itself speaks plain HTTP (TLS ends at a proxy).
  const secure = provisional.canonicalOrigin.startsWith("https:");
  const cookies = new SessionCookies({
    secret: options.sessionSecret,
    maxAgeSeconds: options.sessionMaxAgeSeconds,
    secure,
    now: options.now,
  });
  const authenticator = new Authenticator(auth, cookies, logger);
  const tokens = new OneTimeTokens();
  let latestToken = auth.mode === "token" ? tokens.mint() : undefined;
  let policy: OriginPolicy | undefined;
  let state: "idle" | "listening" | "closed" = "idle";

  const sandbox = new SandboxListeners({
    bindAddress: () => bindAddress,
    template: options.sandboxOriginTemplate,
    policy: () => (state === "listening" ? policy : undefined),
    handleRequest: options.handleSandboxRequest ?? handleSandboxRequest,
    logger,
    ports: options.sandboxPorts,
  });

  const app = express();
  app.disable("x-powered-by");
  app.use(baseSecurityHeaders);
  // Health probes reach the process by whatever address they use; the answer holds no data.
  app.get("/healthz", (_request: Request, response: Response) => {
    response.setHeader("Cache-Control", "no-store");
    response.json({ ok: true });
  });
  app.use((request: Request, response: Response, next: NextFunction) => {
    const refusal =
      policy === undefined
        ? {
            status: 503,
            error: wireError("unavailable", "The server is starting; try again.", {
              retryable: true,
            }),
          }
        : policy.checkHttpRequest(request);
    if (refusal === null) {
      next();
      return;
    }
    logger.warn(
      {
        method: request.method,
        path: request.path,
        host: request.headers.host,
        origin: request.headers.origin,
      },
      `Refused an HTTP request: ${refusal.error.message}`,
    );
    response.status(refusal.status).json({ ok: false, error: refusal.error });
  });
  if (auth.mode === "token")
    app.get(["/", "/auth"], tokenExchange({ tokens, authenticator, logger }));
  app.use(requireAuth(authenticator));
  const routes = express.Router();
  routes.use(express.json({ limit: maxHttpBufferSize }));
  // A cookie without its binding reaches the web app's files only, never a route.
  app.use(boundOnly(routes));
  app.use(
    webApp({
      webRoot: options.webRoot,
      cspFor: (request) =>
        hostPageCsp({
          frameSources: sandbox.frameSources(),
          socketOrigin: `${secure ? "wss" : "ws"}://${request.headers.host ?? ""}`,
        }),
    }),
  );
  app.use(notFound());
  const errorHandler: ErrorRequestHandler = (error: unknown, request, response, _next) => {
    const status = (error as { status?: unknown }).status;
    if (status === 413) {
      response.status(413).json({
        ok: false,
        error: wireError(
          "too_large",
          `The request body is larger than ${maxHttpBufferSize} bytes.`,
        ),
      });
      return;
    }
    if (typeof status === "number" && status >= 400 && status < 500) {
      response
        .status(status)
        .json({ ok: false, error: wireError("bad_request", "The request could not be read.") });
      return;
    }
    const wire = toWireError(error);
    if (wire.code === "internal")
      logger.error({ err: error, path: request.path }, "An HTTP route failed.");
    response.status(httpStatusOf[wire.code]).json({ ok: false, error: wire });
  };
  app.use(errorHandler);

  const httpServer = createServer(app);
  const io: HostSocketServer = new SocketServer(httpServer, {
    serveClient: false,
    transports: ["websocket"],
    maxHttpBufferSize,
    allowRequest: handshakeOriginCheck(() => policy, logger),
  });
  // Every namespace, including ones created later, authenticates its handshakes.
  const authenticateSocket = socketAuth(authenticator, logger);
  io.use(authenticateSocket);
  io.on("new_namespace", (namespace) => namespace.use(authenticateSocket));

  const requirePolicy = (): OriginPolicy => {
    if (policy === undefined || state !== "listening") {
      throw new HttpLayerError(
        "not_listening",
        "The server is not listening yet; await listen() first.",
      );
    }
    return policy;
  };
  const signInFor = (token: string): string => `${requirePolicy().canonicalOrigin}/?token=${token}`;

  return {
    app,
    routes,
    io,
    urls: {
      get host() {
        return requirePolicy().canonicalOrigin;
      },
      get signIn() {
        return latestToken === undefined ? (requirePolicy(), null) : signInFor(latestToken);
      },
      sandboxPlacement: async (sourceKey, pageHost, params) =>
        sandbox.placement(sourceKey, pageHost, params),
    },
    async listen(listenOptions = {}) {
      if (state !== "idle") {
        throw new HttpLayerError(
          "already_listening",
          "listen() was already called on this layer; create a new one.",
        );
      }
      if (listenOptions.host !== undefined) {
        assertBindAllowed(listenOptions.host, options.auth);
        bindAddress = listenOptions.host;
      }
      await new Promise<void>((resolve, reject) => {
        httpServer.once("error", reject);
        httpServer.listen(listenOptions.port ?? 0, bindAddress, () => {
          httpServer.off("error", reject);
          resolve();
        });
      });
      const { port } = httpServer.address() as AddressInfo;
      // The page's CSP names the sandbox proxy's exact origin: know it before serving a page.
      await sandbox.open();
      policy = new OriginPolicy({ port, bindAddress, ...policyOptions });
      state = "listening";
      logger.info({ url: policy.canonicalOrigin, bindAddress, auth: auth.mode }, "Listening.");
      return { port, url: policy.canonicalOrigin };
    },
    async close() {
      if (state === "closed") return;
      const wasListening = state === "listening";
      state = "closed";
      await sandbox.close();
      const cutOff = setTimeout(
        () => httpServer.closeAllConnections(),
        options.closeTimeoutMs ?? 5_000,
      );
      try {
        httpServer.closeIdleConnections();
        await io.close();
      } finally {
        clearTimeout(cutOff);
      }
      if (wasListening) logger.info("Closed.");
    },
    async authenticate(request) {
      const result = await authenticator.authenticate(request, {
        binding: request.headers[sessionBinding.header],
        requireBinding: true,
      });
      return result.ok ? result.session : null;
    },
    signInUrl() {
      if (auth.mode !== "token") {
        throw new HttpLayerError(
          "bad_option",
          `signInUrl() only exists in the token auth mode (this server uses ${auth.mode}).`,
        );
      }
      requirePolicy();
      latestToken = tokens.mint();
      return signInFor(latestToken);
    },
  };
}
