import type { SigningKey } from "@mcp-chat-host/sandbox";
import type { SandboxRequestOptions, SandboxResponse } from "@mcp-chat-host/sandbox/server";
import type { Logger } from "pino";
import type { OriginPolicy } from "./origin-check";

/** The sandbox package's request handler (`handleSandboxRequest` of `@mcp-chat-host/sandbox`). */
export type SandboxRequestHandler = (
  url: URL,
  options: SandboxRequestOptions,
) => SandboxResponse | Promise<SandboxResponse>;

/** Options of `SandboxListeners` (of `./sandbox-listeners`). */
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
  /**
   * With a template: the port of this node's own listener for the template's host names (the
   * balancer sends `*.sandbox.example.com` there). None: something else serves the sandbox.
   */
  deployedPort?: number | undefined;
  /** The key proxy and view URLs are signed with; default 32 random bytes per process. */
  signingKey?: SigningKey | undefined;
  /** The clock for proxy URL expiry, in ms since the epoch (default `Date.now`). */
  now?: (() => number) | undefined;
}

/** Where the sandbox port is remembered (the CLI keeps it in the data folder). */
export interface SandboxPortMemory {
  /** The port the sandbox had before, if any. */
  preferred(): number | undefined;
  /** Records the port the sandbox got. */
  remember(port: number): void;
}
