import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import {
  buildProxyUrl,
  isViewLabel,
  sandboxOrigins,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
  type SandboxOrigins,
  type SandboxRequestOptions,
  type SandboxResponse,
  type SigningKey,
} from "@mcp-chat-host/sandbox";
import type { Logger } from "pino";
import { HttpLayerError } from "./http-layer-error";
import type { OriginPolicy } from "./origin-check";

/** The sandbox package's request handler (`handleSandboxRequest` of `@mcp-chat-host/sandbox`). */
export type SandboxRequestHandler = (
  url: URL,
  options: SandboxRequestOptions,
) => SandboxResponse | Promise<SandboxResponse>;

/** Options of {@link SandboxListeners}. */
export interface SandboxListenersOptions {
  /** The address the host is bound to; the listener binds it too when it is loopback. */
  bindAddress: () => string;
  /**
   * Deployment: an origin template whose first label is `{source}`
   * (`https://{source}.sandbox.example.com`); no listener is opened and something else serves
   * the sandbox there (with its own signing key).
   */
  template?: string | undefined;
  /** The host's allow-lists (available once the host listens). */
  policy: () => OriginPolicy | undefined;
  /** Answers every request on the sandbox listener. */
  handleRequest: SandboxRequestHandler;
  logger: Logger;
  /**
   * Remembers the sandbox port across restarts: a view's storage belongs to its origin, and the
   * port is part of it, so views keep what they saved when the port comes back.
   */
  ports?: SandboxPortMemory | undefined;
  /** The key view URLs are signed with; default 32 random bytes per process. */
  signingKey?: SigningKey | undefined;
}

/** Where the sandbox port is remembered (the CLI keeps it in the data folder). */
export interface SandboxPortMemory {
  /** The port the sandbox had before, if any. */
  preferred(): number | undefined;
  /** Records the port the sandbox got. */
  remember(port: number): void;
}

/** Where a card's view is shown: the sandbox proxy's origin and the card's proxy page URL. */
export interface SandboxPlacement {
  origin: string;
  proxyUrl: string;
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A source key as one DNS label, never the proxy's. Keys that already are a view label are kept;
 * others are reduced to letters, digits and dashes plus a short hash, so two keys never share an
 * origin.
 *
 * @param sourceKey - the source's unique name.
 * @returns a DNS label (at most 63 characters).
 */
export function sourceLabel(sourceKey: string): string {
  if (DNS_LABEL.test(sourceKey) && isViewLabel(sourceKey)) return sourceKey;
  const hash = createHash("sha256").update(sourceKey, "utf8").digest("hex").slice(0, 8);
  const slug = sourceKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);
  return slug.length > 0 ? `${slug}-${hash}` : `source-${hash}`;
}

/**
 * Reads a deployment template.
 *
 * @throws {HttpLayerError} `bad_option` unless it is an http(s) origin whose first label is `{source}`.
 */
function readTemplate(template: string): SandboxOrigins {
  try {
    return sandboxOrigins(template);
  } catch {
    throw new HttpLayerError(
      "bad_option",
      `sandboxOriginTemplate: "${template}" must be an origin whose first label is {source}, like "https://{source}.sandbox.example.com".`,
    );
  }
}

/** The open listener. */
interface Listener {
  server: Server;
  port: number;
  origins: SandboxOrigins;
}

/**
 * The sandbox's origins: one proxy origin, and one view origin per source, so views of different
 * servers never share storage or a site. Locally one listener on a loopback address serves them
 * all by name: `http://proxy.localhost:<port>` and `http://<source>.localhost:<port>`. Browsers
 * treat every `*.localhost` name as a site of its own, so no view is same-site with the host page
 * (`127.0.0.1`, `localhost`) or with another view: a view cannot set or shadow a cookie the host
 * reads, and none of its requests carries the host's cookie. The listener serves nothing but the
 * sandbox package's pages, answers only to those names on its own port, and never reads cookies.
 * With a template, origins are computed and no listener is opened.
 */
export class SandboxListeners {
  private readonly options: SandboxListenersOptions;
  private readonly deployed: SandboxOrigins | undefined;
  private readonly signingKey: SigningKey;
  private listener: Listener | undefined;
  private opening: Promise<void> | undefined;
  private closed = false;

  /**
   * @param options - bind address, template, the host's policy, the request handler, a logger.
   * @throws {HttpLayerError} `bad_option` for a malformed template.
   */
  constructor(options: SandboxListenersOptions) {
    this.deployed = options.template === undefined ? undefined : readTemplate(options.template);
    this.options = options;
    this.signingKey = options.signingKey ?? randomBytes(32);
  }

  /** How many local listeners are open (0 or 1). */
  get openCount(): number {
    return this.listener === undefined ? 0 : 1;
  }

  /** The sandbox's origins, once known (at once with a template, after {@link open} locally). */
  get origins(): SandboxOrigins | undefined {
    return this.deployed ?? this.listener?.origins;
  }

  /**
   * Opens the local listener (nothing with a template). The host page's CSP names the proxy's
   * exact origin, so the port must be known before the first page is served.
   *
   * @returns when it listens.
   * @throws {HttpLayerError} `not_listening` after {@link close}.
   */
  open(): Promise<void> {
    if (this.closed) {
      return Promise.reject(
        new HttpLayerError("not_listening", "The sandbox was closed; create a new host layer."),
      );
    }
    if (this.deployed !== undefined) return Promise.resolve();
    this.opening ??= this.listen().then((listener) => {
      this.listener = listener;
    });
    return this.opening;
  }

  /**
   * Where a card of a source is shown: the proxy's origin and the card's proxy URL, which names
   * the page's origin, the source's view origin and the view's declared CSP and permissions.
   *
   * @param sourceKey - the source's unique name.
   * @param pageHost - the `Host` the page was loaded from (its origin may embed the proxy); the
   *   host's preferred origin when absent or not allowed.
   * @param params - the view's declared `csp` and `permissions`.
   * @returns the placement.
   * @throws {HttpLayerError} `not_listening` before the host listens (local mode) or after close;
   *   `bad_option` when, without a template, the page was loaded from an address that is not this
   *   machine (local sandbox names only work in a browser on this machine).
   */
  placement(
    sourceKey: string,
    pageHost: string | undefined,
    params: {
      csp?: McpUiResourceCsp | undefined;
      permissions?: McpUiResourcePermissions | undefined;
    },
  ): SandboxPlacement {
    const policy = this.requirePolicy();
    const origins = this.origins;
    if (origins === undefined) {
      throw new HttpLayerError(
        "not_listening",
        "The sandbox listener is not open yet; await listen() first.",
      );
    }
    const host = pageOrigin(policy, pageHost);
    if (this.deployed === undefined && !isLoopbackHost(new URL(host).hostname)) {
      throw new HttpLayerError(
        "bad_option",
        `This page was opened at ${host}, but the local sandbox (http://*.localhost) only reaches a browser on this machine; set sandboxOriginTemplate to serve app views to other machines.`,
      );
    }
    return {
      origin: origins.proxyOrigin,
      proxyUrl: buildProxyUrl(origins.proxyOrigin, {
        host,
        view: sourceLabel(sourceKey),
        csp: params.csp,
        permissions: params.permissions,
      }),
    };
  }

  /**
   * The `frame-src` sources of a host page: exactly the sandbox proxy's origin (the only frame
   * the page ever holds), or nothing before the sandbox is known.
   *
   * @returns CSP source expressions.
   */
  frameSources(): string[] {
    const origins = this.origins;
    return origins === undefined ? [] : [origins.proxyOrigin];
  }

  /**
   * Closes the listener and its connections.
   *
   * @returns when it is closed.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.opening?.catch(() => undefined);
    const listener = this.listener;
    this.listener = undefined;
    if (listener === undefined) return;
    await new Promise<void>((resolve) => {
      listener.server.close(() => resolve());
      listener.server.closeAllConnections();
    });
  }

  private requirePolicy(): OriginPolicy {
    const policy = this.options.policy();
    if (policy === undefined || this.closed) {
      throw new HttpLayerError(
        "not_listening",
        "Sandbox origins need the host to be listening; await listen() first (and not after close()).",
      );
    }
    return policy;
  }

  /** The address to bind: the host's own when it is loopback, else 127.0.0.1 (views are local). */
  private listenAddress(): string {
    const address = this.options.bindAddress();
    const bare = address.replace(/^\[|\]$/g, "");
    return isLoopbackHost(bare) && bare !== "0.0.0.0" && bare !== "::" ? bare : "127.0.0.1";
  }

  private async listen(): Promise<Listener> {
    const preferred = this.options.ports?.preferred();
    if (preferred !== undefined) {
      try {
        return await this.listenOn(preferred);
      } catch (error) {
        this.options.logger.info(
          { err: error, port: preferred },
          "The previous sandbox port is taken; using another (app views lose what they saved in the browser).",
        );
      }
    }
    const listener = await this.listenOn(0);
    this.options.ports?.remember(listener.port);
    return listener;
  }

  private listenOn(requestedPort: number): Promise<Listener> {
    return new Promise<Listener>((resolve, reject) => {
      let origins: SandboxOrigins | undefined;
      const server = createServer((request, response) => {
        if (origins !== undefined) void this.answer(request, response, origins);
      });
      server.once("error", reject);
      server.listen(requestedPort, this.listenAddress(), () => {
        const port = (server.address() as AddressInfo).port;
        origins = sandboxOrigins(`http://{source}.localhost:${port}`);
        server.off("error", reject);
        server.on("error", (error) =>
          this.options.logger.error({ err: error }, "Sandbox listener error."),
        );
        this.options.logger.info(
          { port, proxy: origins.proxyOrigin },
          "Opened the sandbox listener.",
        );
        resolve({ server, port, origins });
      });
    });
  }

  private async answer(
    request: IncomingMessage,
    response: ServerResponse,
    origins: SandboxOrigins,
  ): Promise<void> {
    const policy = this.options.policy();
    const host = request.headers.host?.toLowerCase();
    // Only the sandbox's own names on this port: never the host's names, never a rebound name.
    if (
      policy === undefined ||
      host === undefined ||
      origins.classify(`http://${host}`) === undefined
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
      const url = new URL(request.url ?? "/", `http://${host}`);
      const answer = await this.options.handleRequest(url, {
        hostOrigins: [...policy.origins],
        originTemplate: origins.template,
        signingKey: this.signingKey,
        method: request.method,
      });
      if (answer.rejected.length > 0) {
        this.options.logger.warn(
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
      this.options.logger.error({ err: error }, "The sandbox request handler failed.");
      if (!response.headersSent)
        plain(response, 500, "The sandbox page could not be produced; see the server log.");
      else response.destroy();
    }
  }
}

/**
 * The origin of the page a card is shown in: the allowed origin for the page's `Host` (http
 * first, as the host serves it; https behind a proxy), else the host's canonical origin.
 */
function pageOrigin(policy: OriginPolicy, pageHost: string | undefined): string {
  if (pageHost !== undefined && policy.hostAllowed(pageHost)) {
    const host = pageHost.toLowerCase();
    for (const candidate of [`http://${host}`, `https://${host}`]) {
      if (policy.origins.has(candidate)) return candidate;
    }
  }
  return policy.canonicalOrigin;
}

/** A short plain-text answer. */
function plain(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "text/plain; charset=utf-8");
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  response.end(text);
}
