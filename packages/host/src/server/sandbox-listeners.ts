import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { HttpLayerError } from "./http-layer-error";
import type { OriginPolicy } from "./origin-check";

/** What the sandbox package's request handler answers. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Values of the card's CSP or permissions that were dropped (logged here). */
  rejected?: readonly unknown[];
}

/** The sandbox package's request handler (`handleSandboxRequest` of `@mcp-chat-host/sandbox`). */
export type SandboxRequestHandler = (
  url: URL,
  context: { hostOrigin: string; method?: string },
) => SandboxResponse | Promise<SandboxResponse>;

/** Options of {@link SandboxListeners}. */
export interface SandboxListenersOptions {
  /** The address the host is bound to; the listeners bind the same one. */
  bindAddress: () => string;
  /**
   * Deployment: an https origin per source (`https://{source}.sandbox.example.com`); no listener
   * is opened and something else serves the proxy there.
   */
  template?: string | undefined;
  /** The host's allow-lists (available once the host listens). */
  policy: () => OriginPolicy | undefined;
  /** Answers every request on a sandbox listener. */
  handleRequest: SandboxRequestHandler;
  logger: Logger;
  /**
   * Remembers each source's port across restarts: a view's storage belongs to its origin, so a
   * source that gets the same port back keeps its views' saved state.
   */
  ports?: SandboxPortMemory | undefined;
}

/** Where sandbox ports are remembered (the CLI keeps them in the data folder). */
export interface SandboxPortMemory {
  /** The port the source had before, if any. */
  preferred(sourceKey: string): number | undefined;
  /** Records the port the source got. */
  remember(sourceKey: string, port: number): void;
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A source key as one DNS label. Keys that already are one are kept; others are reduced to
 * letters, digits and dashes plus a short hash, so two keys never share an origin.
 *
 * @param sourceKey - the source's unique name.
 * @returns a DNS label (at most 63 characters).
 */
export function sourceLabel(sourceKey: string): string {
  if (DNS_LABEL.test(sourceKey)) return sourceKey;
  const hash = createHash("sha256").update(sourceKey, "utf8").digest("hex").slice(0, 8);
  const slug = sourceKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);
  return slug.length > 0 ? `${slug}-${hash}` : `source-${hash}`;
}

/** The host name of a `Host` header value (`[::1]:80` → `[::1]`). */
function hostnameOf(host: string): string {
  return new URL(`http://${host}`).hostname;
}

/**
 * Checks a sandbox origin template.
 *
 * @throws {HttpLayerError} `bad_option` unless it is an http(s) origin whose first label is `{source}`.
 */
function checkTemplate(template: string): void {
  let url: URL | undefined;
  try {
    url = new URL(template.replace("{source}", "source"));
  } catch {
    url = undefined;
  }
  const valid =
    url !== undefined &&
    (url.protocol === "https:" || url.protocol === "http:") &&
    template.startsWith(`${url.protocol}//{source}.`) &&
    url.origin === template.replace("{source}", "source");
  if (!valid) {
    throw new HttpLayerError(
      "bad_option",
      `sandboxOriginTemplate: "${template}" must be an origin whose first label is {source}, like "https://{source}.sandbox.example.com".`,
    );
  }
}

/** One open listener. */
interface Listener {
  server: Server;
  port: number;
}

/**
 * The sandbox origins, one per source, so views of different servers never share storage. Locally
 * each source gets its own listener on the host's address with an OS-assigned port: same site as
 * the host (so the view keeps its storage), distinct origin. A listener serves nothing but the
 * sandbox package's proxy, answers only to the host's own host names on its own port, and never
 * reads cookies (the host's cookie reaches it, because cookies ignore ports; it means nothing here).
 * With a template, origins are computed and no listener is opened.
 */
export class SandboxListeners {
  private readonly options: SandboxListenersOptions;
  private readonly listeners = new Map<string, Promise<Listener>>();
  private closed = false;

  /**
   * @param options - bind address, template, the host's policy, the request handler, a logger.
   * @throws {HttpLayerError} `bad_option` for a malformed template.
   */
  constructor(options: SandboxListenersOptions) {
    if (options.template !== undefined) checkTemplate(options.template);
    this.options = options;
  }

  /** How many local listeners are open or opening. */
  get openCount(): number {
    return this.listeners.size;
  }

  /**
   * The sandbox origin of a source, opening its listener on first use.
   *
   * @param sourceKey - the source's unique name.
   * @param pageHost - the `Host` the page was loaded from, so the sandbox shares its host name
   *   (and site); the host's preferred name when absent or not allowed.
   * @returns the origin (`http://127.0.0.1:41234`, or the template filled in).
   * @throws {HttpLayerError} `not_listening` before the host listens (local mode) or after close.
   */
  async originFor(sourceKey: string, pageHost?: string): Promise<string> {
    if (this.options.template !== undefined) {
      return this.options.template.replace("{source}", sourceLabel(sourceKey));
    }
    const policy = this.requirePolicy();
    const listener = await this.listenerFor(sourceKey);
    return `http://${this.pageHostname(policy, pageHost)}:${listener.port}`;
  }

  /**
   * The `frame-src` sources of a host page: every port on the page's host name locally (sources
   * get listeners after the page loaded, so their ports can't be listed up front), or the
   * template with a wildcard label.
   *
   * @param pageHost - the page's `Host` header.
   * @returns CSP source expressions.
   */
  frameSources(pageHost?: string): string[] {
    if (this.options.template !== undefined)
      return [this.options.template.replace("{source}", "*")];
    const policy = this.options.policy();
    if (policy === undefined) return [];
    return [`http://${this.pageHostname(policy, pageHost)}:*`];
  }

  /**
   * Closes every listener and its connections.
   *
   * @returns when all are closed.
   */
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.listeners.values()];
    this.listeners.clear();
    await Promise.all(
      pending.map(async (opening) => {
        const listener = await opening.catch(() => undefined);
        if (listener === undefined) return;
        await new Promise<void>((resolve) => {
          listener.server.close(() => resolve());
          listener.server.closeAllConnections();
        });
      }),
    );
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

  private pageHostname(policy: OriginPolicy, pageHost: string | undefined): string {
    if (pageHost !== undefined && policy.hostAllowed(pageHost)) return hostnameOf(pageHost);
    return new URL(policy.canonicalOrigin).hostname;
  }

  private listenerFor(sourceKey: string): Promise<Listener> {
    const existing = this.listeners.get(sourceKey);
    if (existing !== undefined) return existing;
    const opening = this.open(sourceKey);
    this.listeners.set(sourceKey, opening);
    // A failed open is forgotten so a later call can try again.
    opening.catch(() => this.listeners.delete(sourceKey));
    return opening;
  }

  private async open(sourceKey: string): Promise<Listener> {
    const preferred = this.options.ports?.preferred(sourceKey);
    if (preferred !== undefined) {
      try {
        return await this.listenOn(sourceKey, preferred);
      } catch (error) {
        this.options.logger.info(
          { err: error, sourceKey, port: preferred },
          "The source's previous sandbox port is taken; using another (its views lose saved state).",
        );
      }
    }
    const listener = await this.listenOn(sourceKey, 0);
    this.options.ports?.remember(sourceKey, listener.port);
    return listener;
  }

  private listenOn(sourceKey: string, requestedPort: number): Promise<Listener> {
    return new Promise<Listener>((resolve, reject) => {
      let port = 0;
      const server = createServer((request, response) => {
        void this.answer(request, response, port);
      });
      server.once("error", reject);
      server.listen(requestedPort, this.options.bindAddress(), () => {
        port = (server.address() as AddressInfo).port;
        server.off("error", reject);
        server.on("error", (error) =>
          this.options.logger.error({ err: error, sourceKey }, "Sandbox listener error."),
        );
        this.options.logger.info({ sourceKey, port }, "Opened a sandbox listener.");
        resolve({ server, port });
      });
    });
  }

  private async answer(
    request: IncomingMessage,
    response: ServerResponse,
    port: number,
  ): Promise<void> {
    const policy = this.options.policy();
    const host = request.headers.host?.toLowerCase();
    const hostname = host === undefined ? undefined : safeHostname(host);
    const allowedHost =
      policy !== undefined &&
      hostname !== undefined &&
      host === `${hostname}:${port}` &&
      [...policy.hosts].some((candidate) => hostnameOf(candidate) === hostname);
    if (policy === undefined || hostname === undefined || !allowedHost) {
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
        hostOrigin: hostOriginFor(policy, hostname),
        method: request.method,
      });
      if (answer.rejected !== undefined && answer.rejected.length > 0) {
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

/** The host name of a `Host` header, or undefined when it does not parse. */
function safeHostname(host: string): string | undefined {
  try {
    return hostnameOf(host);
  } catch {
    return undefined;
  }
}

/**
 * The host page origin a sandbox request belongs to: an allowed origin with the same host name,
 * preferring the host's canonical origin, then one on the host's own port.
 */
function hostOriginFor(policy: OriginPolicy, hostname: string): string {
  const canonical = new URL(policy.canonicalOrigin);
  if (canonical.hostname === hostname) return policy.canonicalOrigin;
  const candidates = [...policy.origins].filter((origin) => new URL(origin).hostname === hostname);
  return (
    candidates.find((origin) => new URL(origin).port === canonical.port) ??
    candidates[0] ??
    policy.canonicalOrigin
  );
}

/** A short plain-text answer. */
function plain(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "text/plain; charset=utf-8");
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.end(text);
}
