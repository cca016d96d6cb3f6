import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { limits, sessionBinding, wireError } from "@mcp-chat-host/protocol";
import { handleSandboxRequest } from "@mcp-chat-host/sandbox/server";
import express, { type NextFunction, type Request, type Response } from "express";
import { pino } from "pino";
import { Server as SocketServer } from "socket.io";
import { internalWireError } from "../errors/internal-error";
import { type AuthOptions, Authenticator } from "./auth";
import { assertBindAllowed, DEFAULT_BIND_ADDRESS } from "./bind-policy";
import type { HostSocketServer, HttpLayer, HttpLayerOptions } from "./http-layer-contract";
import { HttpLayerError } from "../errors/http-layer-error";
import { answerHeaderOverflow, maxRequestHeaderBytes } from "./header-overflow";
import { OneTimeTokens } from "./one-time-tokens";
import { checkOidcOptions } from "./oidc-options";
import { oidcRoutes, type SharedSignInStates } from "./oidc-routes";
import { serverSignInRoutes, type ServerSignInRoutesPort } from "./server-sign-in-routes";
import { OriginPolicy } from "./origin-check";
import { boundOnly, notFound, requireAuth } from "./require-auth";
import { routeErrorHandler } from "./route-error-handler";
import { SandboxListeners } from "./sandbox-listeners";
import { baseSecurityHeaders, hostPageCsp } from "./security-headers";
import { SessionCookies } from "./session-cookie";
import { refuseWhileDraining } from "./drain-guard";
import { handshakeOriginCheck, socketAuth } from "./socket-guard";
import { tokenExchange } from "./token-exchange";
import { webApp } from "./web-app";

export type { HostSocketServer, HttpLayer, HttpLayerOptions } from "./http-layer-contract";

/** The socket.io room of one browser session's sockets. */
function sessionRoom(sessionId: string): string {
  return `session:${sessionId}`;
}

/**
 * Builds the server's HTTP and socket shell with its security: Host and Origin checks, auth
 * (one-time token → cookie, OpenID Connect → cookie, trusted header, or a function), security headers, `/healthz`, the
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
  // Checked now, so a bad issuer or domain fails at construction, not at the first sign-in.
  const oidc = auth.mode === "oidc" ? checkOidcOptions(auth) : undefined;
  let signInStates: SharedSignInStates | null = null;
  let serverSignIn: ServerSignInRoutesPort | null = null;
  const tokens = new OneTimeTokens({ now: options.now });
  let latestToken = auth.mode === "token" ? tokens.mint() : undefined;
  let policy: OriginPolicy | undefined;
  let state: "idle" | "listening" | "closed" = "idle";
  // Draining: the listener stays open (a balancer's probe must get a 503, never a refused
  // connection) but new socket handshakes are refused; `close()` ends it.
  let draining = false;

  const sandbox = new SandboxListeners({
    bindAddress: () => bindAddress,
    template: options.sandboxOriginTemplate,
    policy: () => (state === "listening" ? policy : undefined),
    handleRequest: options.handleSandboxRequest ?? handleSandboxRequest,
    logger,
    ports: options.sandboxPorts,
    deployedPort: options.sandboxListenerPort,
    now: options.now,
    // One key signs the proxy URLs the page gets and the view URLs the proxy gives out.
    ...(options.sandboxSigningKey !== undefined
      ? { signingKey: options.sandboxSigningKey }
      : options.sessionSecret === undefined
        ? {}
        : {
            signingKey: createHmac("sha256", options.sessionSecret)
              .update("mcp-chat-host sandbox view signing key")
              .digest(),
          }),
  });

  const app = express();
  app.disable("x-powered-by");
  app.use(baseSecurityHeaders);
  // Health probes reach the process by whatever address they use; the answer holds no data.
  app.get("/healthz", (_request: Request, response: Response) => {
    response.setHeader("Cache-Control", "no-store");
    response.json({ ok: true });
  });
  // Readiness: whether this node can serve now (its database and Redis answer, not draining).
  app.get("/readyz", async (_request: Request, response: Response) => {
    response.setHeader("Cache-Control", "no-store");
    const report =
      state !== "listening"
        ? { ok: false, listening: false }
        : options.readiness === undefined
          ? { ok: true }
          : await options.readiness().catch(() => ({ ok: false }));
    const answer = draining ? { ...report, ok: false, draining: true } : report;
    response.status(answer.ok ? 200 : 503).json(answer);
  });
  // A scraper names the node by its address, so `/metrics` comes before the Host check too.
  app.get("/metrics", options.metricsRoute ?? notFound());
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
  if (oidc !== undefined) {
    app.use(
      oidcRoutes({
        options: oidc,
        authenticator,
        cookies,
        states: () => signInStates,
        origin: () => requirePolicy().canonicalOrigin,
        // Every tab of that browser session, on whichever node holds it (the adapter's room).
        endSession: (sessionId) => io.in(sessionRoom(sessionId)).disconnectSockets(true),
        logger,
        now: options.now ?? Date.now,
      }),
    );
  }
  app.use(serverSignInRoutes({ signIn: () => serverSignIn, cookies, logger }));
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
  app.use(routeErrorHandler({ maxHttpBufferSize, toWireError, logger }));

  // Larger heads than Node's 16 KiB: other local pages' cookies reach this port too (one server
  // for the page, its routes and the socket's upgrade, in every mode, cluster nodes included).
  const httpServer = createServer({ maxHeaderSize: maxRequestHeaderBytes }, app);
  answerHeaderOverflow(
    httpServer,
    () => (policy === undefined ? bindAddress : new URL(policy.canonicalOrigin).hostname),
    logger,
  );
  const io: HostSocketServer = new SocketServer(httpServer, {
    serveClient: false,
    transports: ["websocket"],
    maxHttpBufferSize,
    allowRequest: refuseWhileDraining(
      () => draining,
      handshakeOriginCheck(() => policy, logger),
    ),
  });
  // Every namespace, including ones created later, authenticates its handshakes.
  const authenticateSocket = socketAuth(authenticator, logger);
  io.use(authenticateSocket);
  io.on("new_namespace", (namespace) => namespace.use(authenticateSocket));
  // A room per browser session, so a sign-out can end its tabs on every node.
  io.on("connection", (socket) => {
    void socket.join(sessionRoom(socket.data.sessionId));
  });

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
    async shareTokens(store) {
      await tokens.share(store);
    },
    shareSignInStates(store) {
      signInStates = store;
    },
    useServerSignIn(port) {
      serverSignIn = port;
    },
    async mintSignInUrl() {
      const url = this.signInUrl();
      await tokens.saved();
      return url;
    },
    stopAccepting() {
      draining = true;
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
