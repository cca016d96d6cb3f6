// The `mcpServers` configuration file, in the format Claude Desktop and mcptools use, plus an
// optional top-level `host` section that the host package reads (passed through untouched here):
// the shapes of its validated entries.

/**
 * Whether conversations share one process-wide connection to a server (`"process"`) or each
 * conversation gets its own (`"conversation"`). See {@link effectiveShareMode} for the defaults.
 */
export type McpShareMode = "process" | "conversation";

/** A server the host starts as a child process and talks to over stdin/stdout. */
export interface McpStdioServerConfig {
  kind: "stdio";
  /** The entry's exact key under `mcpServers`. */
  name: string;
  /** Program to run, resolved on `PATH` when it is not a path. */
  command: string;
  args: string[];
  /** Variables added to (and overriding) the environment the child inherits. */
  env: Record<string, string>;
  /** Seconds to wait for each answer (default: the caller's, 60 in the host). */
  timeout?: number;
  share?: McpShareMode;
  /**
   * The server's box (see `configureServerBox`): absent for the default box, `false` to run it
   * unboxed (refused when boxes are required), or what the box lets it reach besides.
   */
  box?: McpStdioBox | false;
}

/** What a stdio server's box lets it reach besides its own program. */
export interface McpStdioBox {
  /** Whether the server may use the network (default true); false gives it no network at all. */
  network: boolean;
  /** Absolute paths the server may read. */
  read: string[];
  /** Absolute paths the server may read and write. */
  write: string[];
}

/** A server reached over Streamable HTTP. */
export interface McpRemoteServerConfig {
  kind: "remote";
  /** The entry's exact key under `mcpServers`. */
  name: string;
  url: string;
  /** Header values with every `${VARIABLE}` already replaced from the environment. */
  headers: Record<string, string>;
  /** Seconds to wait for each reply; absent means the connection's own default. */
  timeout?: number;
  /** The operator accepted sending credentials over plain `http://` to a non-loopback host. */
  allowHttp: boolean;
  share?: McpShareMode;
  /**
   * How the host signs people in to this server (OAuth), when the entry says more than "sign in
   * if the server asks": a client the authorization server registered for this host, and the
   * scopes to ask for. Without it, the host registers itself (Client ID Metadata Document or
   * Dynamic Client Registration) when the server first answers 401.
   */
  oauth?: McpRemoteOAuthConfig;
}

/** A remote server's pre-registered OAuth client and the scopes to ask for. */
export interface McpRemoteOAuthConfig {
  /** The client id the authorization server issued for this host. */
  clientId?: string;
  /** Its secret (with `${VARIABLE}` replaced), for a confidential client. */
  clientSecret?: string;
  /** The scopes to ask for; default: what the server's challenge or metadata names. */
  scopes?: string[];
}

/** One validated entry of `mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpRemoteServerConfig;

/** A validated configuration file. */
export interface McpConfig {
  /** Entries by their exact name, in file order. */
  servers: Record<string, McpServerConfig>;
  /** The top-level `host` section, untouched: the host package validates it. */
  host?: unknown;
  /** Where the configuration came from (a file path or a label), for messages and status rows. */
  source?: string;
}
