import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import {
  sandboxOrigins,
  signProxyUrl,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
  type SandboxOrigins,
  type SigningKey,
} from "@mcp-chat-host/sandbox";
import { isLoopbackAddress } from "./bind-policy";
import { HttpLayerError } from "../errors/http-layer-error";
import { answerHeaderOverflow, maxRequestHeaderBytes } from "./header-overflow";
import type { OriginPolicy } from "./origin-check";
import { answerSandboxRequest } from "./sandbox-answer";
import type { SandboxListenersOptions } from "./sandbox-listener-options";
import { pageOrigin, sourceLabel, type SandboxPlacement } from "./sandbox-placement";

export type { SandboxPortMemory } from "./sandbox-listener-options";

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
    const deployed = this.deployed;
    if (deployed !== undefined) {
      const port = this.options.deployedPort;
      if (port === undefined) return Promise.resolve();
      this.opening ??= this.listenOn(port, deployed).then((listener) => {
        this.listener = listener;
      });
      return this.opening;
    }
    this.opening ??= this.listen().then((listener) => {
      this.listener = listener;
    });
    return this.opening;
  }

  /**
   * Where a card of a source is shown: the proxy's origin and the card's proxy URL, which names
   * the page's origin, the source's view origin and the view's declared CSP and permissions, and
   * is signed with the sandbox's key for a day (the sandbox serves no other proxy URL).
   *
   * @param sourceKey - the source's unique name.
   * @param pageHost - the `Host` the page was loaded from (its origin may embed the proxy); the
   *   host's preferred origin when absent or not allowed.
   * @param params - the view's declared `csp` and `permissions`.
   * @returns the placement (async: WebCrypto signs).
   * @throws {HttpLayerError} `not_listening` before the host listens (local mode) or after close;
   *   `bad_option` when, without a template, the page was loaded from an address that is not this
   *   machine (local sandbox names only work in a browser on this machine).
   */
  async placement(
    sourceKey: string,
    pageHost: string | undefined,
    params: {
      csp?: McpUiResourceCsp | undefined;
      permissions?: McpUiResourcePermissions | undefined;
    },
  ): Promise<SandboxPlacement> {
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
      proxyUrl: await signProxyUrl(
        origins.proxyOrigin,
        {
          host,
          view: sourceLabel(sourceKey),
          csp: params.csp,
          permissions: params.permissions,
        },
        this.signingKey,
        (this.options.now ?? Date.now)(),
      ),
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
    return isLoopbackAddress(address) ? address.replace(/^\[|\]$/g, "") : "127.0.0.1";
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

  /**
   * Opens a listener: locally for `*.localhost` names on a loopback address; with `deployed`, for
   * the template's names on the host's own bind address (behind the balancer).
   */
  private listenOn(requestedPort: number, deployed?: SandboxOrigins): Promise<Listener> {
    return new Promise<Listener>((resolve, reject) => {
      let origins: SandboxOrigins | undefined;
      // Cookies of `localhost` may reach the sandbox's names too: the host's header limit here.
      const server = createServer({ maxHeaderSize: maxRequestHeaderBytes }, (request, response) => {
        if (origins !== undefined) {
          void answerSandboxRequest(request, response, origins, {
            policy: () => this.options.policy(),
            handleRequest: (url, options) => this.options.handleRequest(url, options),
            signingKey: this.signingKey,
            now: this.options.now,
            logger: this.options.logger,
          });
        }
      });
      answerHeaderOverflow(server, () => "localhost", this.options.logger);
      server.once("error", reject);
      const address = deployed === undefined ? this.listenAddress() : this.options.bindAddress();
      server.listen(requestedPort, address, () => {
        const port = (server.address() as AddressInfo).port;
        origins = deployed ?? sandboxOrigins(`http://{source}.localhost:${port}`);
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
}
