import type { IncomingHttpHeaders } from "node:http";
import { httpOrigin, type WireError, wireError } from "@mcp-chat-host/protocol";
import { isWildcardAddress, urlHostFor } from "./bind-policy";
import { HttpLayerError } from "../errors/http-layer-error";

/** What the allow-lists are built from, once the listening port is known. */
export interface OriginPolicyOptions {
  /** The port the host listens on. */
  port: number;
  /** The address the host is bound to. */
  bindAddress: string;
  /** The origin people use when it is not this machine's loopback address (behind a proxy). */
  publicOrigin?: string | undefined;
  /** Extra `Host` header values to answer to (`name:port`; no port means 80/443). */
  allowedHosts?: readonly string[] | undefined;
  /** Extra page origins whose requests and sockets are accepted (`http://localhost:5173`). */
  allowedOrigins?: readonly string[] | undefined;
}

/** A refused request: the HTTP status to answer with and the error to send. */
export interface Refusal {
  /** 421 for a foreign `Host`, 403 for a foreign `Origin`. */
  status: 403 | 421;
  error: WireError;
}

/** The parts of a request the policy looks at. */
export interface CheckedRequest {
  method?: string | undefined;
  headers: IncomingHttpHeaders;
}

/** Methods that change nothing; everything else must carry an allowed `Origin`. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `Sec-Fetch-Site` values that a request without `Origin` may carry on a safe method. */
const OWN_FETCH_SITES = new Set(["same-origin", "none"]);

/**
 * Turns an origin string into its canonical form.
 *
 * @throws {HttpLayerError} `bad_option` when it is not an http(s) origin.
 */
function canonicalOrigin(value: string, optionName: string): string {
  const origin = httpOrigin(value);
  if (origin !== undefined) return origin;
  const isUrl = URL.canParse(value);
  throw new HttpLayerError(
    "bad_option",
    isUrl
      ? `${optionName}: "${value}" must be an http or https origin.`
      : `${optionName}: "${value}" is not a URL; write it as "https://chat.example.com".`,
  );
}

/**
 * Turns a `Host` value into the form browsers send (lower case, no default port).
 *
 * @throws {HttpLayerError} `bad_option` when it is not a bare `name[:port]`.
 */
function canonicalHost(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(`http://${value.trim()}`);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.username !== "" ||
    value.includes("/")
  ) {
    throw new HttpLayerError(
      "bad_option",
      `allowedHosts: "${value}" is not a host name with an optional port; write it as "chat.lan:8787".`,
    );
  }
  return url.host;
}

/** The first value of a header that may repeat. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The allow-lists that defend against cross-site requests and DNS rebinding: which `Host` header
 * values the server answers to and which page origins may talk to it. Every HTTP route (except
 * `/healthz`) and every socket handshake goes through it.
 *
 * Defaults, with `<port>` the listening port: hosts `127.0.0.1:<port>`, `localhost:<port>`,
 * `[::1]:<port>` and the bound address; origins `http://` + each of those hosts. Configured
 * `allowedHosts` also add their `http://` origin; `publicOrigin` adds its host and itself.
 */
export class OriginPolicy {
  /** Accepted `Host` header values, lower case. */
  readonly hosts: ReadonlySet<string>;
  /** Accepted `Origin` header values. */
  readonly origins: ReadonlySet<string>;
  /** The origin the host prefers to be reached at (the public origin, else loopback). */
  readonly canonicalOrigin: string;

  /**
   * @param options - port, bound address and configured extras.
   * @throws {HttpLayerError} `bad_option` when a configured origin is not an http(s) URL.
   */
  constructor(options: OriginPolicyOptions) {
    const hosts = new Set<string>();
    const origins = new Set<string>();
    const { port } = options;
    const loopbackHosts = ["127.0.0.1", "localhost", "[::1]"];
    if (!isWildcardAddress(options.bindAddress))
      loopbackHosts.push(urlHostFor(options.bindAddress));
    for (const name of loopbackHosts) hosts.add(`${name.toLowerCase()}:${port}`);
    for (const host of options.allowedHosts ?? []) hosts.add(canonicalHost(host));
    for (const host of hosts) origins.add(`http://${host}`);
    let preferred = `http://${urlHostFor(options.bindAddress)}:${port}`;
    if (options.publicOrigin !== undefined) {
      preferred = canonicalOrigin(options.publicOrigin, "publicOrigin");
      hosts.add(new URL(preferred).host.toLowerCase());
      origins.add(preferred);
    }
    for (const origin of options.allowedOrigins ?? []) {
      origins.add(canonicalOrigin(origin, "allowedOrigins"));
    }
    this.hosts = hosts;
    this.origins = origins;
    this.canonicalOrigin = preferred;
  }

  /** Whether the server answers to this `Host` header value. */
  hostAllowed(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  /** Whether requests from this page origin are accepted (`null` and absent never are). */
  originAllowed(origin: string | undefined): boolean {
    return origin !== undefined && this.origins.has(origin.toLowerCase());
  }

  /**
   * Checks an HTTP request: `Host` in the allow-list; a state-changing method must carry an
   * allowed `Origin`; a safe method with an `Origin` must have an allowed one, and without one it
   * is refused when the browser says it came from another site or origin (`Sec-Fetch-Site`),
   * except for top-level navigations (a link to the host opens the host, which cannot be framed).
   * The sandbox listeners share the host's site, so a view's `<img src>` or `<script src>` at the
   * host carries the cookie: `Sec-Fetch-Site: same-site` is what refuses it.
   *
   * @param request - method and headers.
   * @returns a refusal, or null when the request may go on.
   */
  checkHttpRequest(request: CheckedRequest): Refusal | null {
    const hostRefusal = this.checkHost(request.headers);
    if (hostRefusal !== null) return hostRefusal;
    const method = (request.method ?? "GET").toUpperCase();
    const origin = headerValue(request.headers.origin);
    if (origin !== undefined) return this.originAllowed(origin) ? null : this.originRefusal();
    if (!SAFE_METHODS.has(method)) return this.originRefusal();
    const site = headerValue(request.headers["sec-fetch-site"]);
    const mode = headerValue(request.headers["sec-fetch-mode"]);
    if (site === undefined || OWN_FETCH_SITES.has(site) || mode === "navigate") return null;
    return this.originRefusal();
  }

  /**
   * Checks a socket.io handshake: `Host` in the allow-list and an allowed `Origin`, which
   * browsers always send on a WebSocket handshake (a client without one is refused).
   *
   * @param request - the handshake's headers.
   * @returns a refusal, or null when the handshake may go on.
   */
  checkHandshake(request: CheckedRequest): Refusal | null {
    const hostRefusal = this.checkHost(request.headers);
    if (hostRefusal !== null) return hostRefusal;
    return this.originAllowed(headerValue(request.headers.origin)) ? null : this.originRefusal();
  }

  private checkHost(headers: IncomingHttpHeaders): Refusal | null {
    if (this.hostAllowed(headers.host)) return null;
    return {
      status: 421,
      error: wireError(
        "forbidden",
        `This server does not answer to that host name (a defence against DNS rebinding). ` +
          `Open it at ${this.canonicalOrigin}, or add the name to the allowedHosts option.`,
      ),
    };
  }

  private originRefusal(): Refusal {
    return {
      status: 403,
      error: wireError(
        "forbidden",
        `Requests from another site or origin are refused. Open the host at ${this.canonicalOrigin}; ` +
          `to serve it under another origin, add that origin to the allowedOrigins option.`,
      ),
    };
  }
}
