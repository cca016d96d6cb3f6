// The `mcpServers` configuration file, in the format Claude Desktop and mcptools use, plus an
// optional top-level `host` section that the host package reads (passed through untouched here).
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { resolve as resolvePath } from "node:path";
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import { visit } from "jsonc-parser";
import { z } from "zod";

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

/** Options of {@link parseMcpConfig} and {@link loadMcpConfig}. */
export interface ParseMcpConfigOptions {
  /** Variables for `${NAME}` in header values. Defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** A file path or label naming the configuration in messages. */
  source?: string;
}

/**
 * A configuration that cannot be used. `message` says what is wrong and how to fix it, and never
 * contains a header value (they often hold secrets).
 */
export class McpConfigError extends Error {
  /** Stable code callers switch on. */
  readonly code = "config";
  /** The server entry concerned, when there is one. */
  readonly server: string | undefined;

  /**
   * @param message - what is wrong and what to do next.
   * @param server - the entry concerned, if any.
   */
  constructor(message: string, server?: string) {
    super(message);
    this.name = "McpConfigError";
    this.server = server;
  }
}

/** Where mcptools looks when no configuration is named; `~` is expanded on load. */
export const defaultMcpConfigPath = "~/.config/mcptools/config.json";

const processingFailed = "Configuration processing failed";
const notUniquelyNamed = "Select one exact, uniquely named MCP server configuration.";
const needsUrlOrCommand = "Each server must have either url or command.";
const unknownServers = "`servers` must name configured MCP servers exactly.";

// The transport sets these itself; letting a configuration override them breaks the protocol.
const reservedHeaders = ["accept", "content-type", "mcp-session-id", "mcp-protocol-version"];

const shareSchema = z.enum(["process", "conversation"]);

const stdioEntrySchema = z.object({
  command: z.string().min(1, "must be a non-empty string"),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  timeout: z.number().positive("must be a positive number of seconds").optional(),
  share: shareSchema.optional(),
});

const remoteEntrySchema = z.object({
  url: z.string().min(1, "must be a non-empty string"),
  headers: z.record(z.string(), z.string()).default({}),
  timeout: z.number().positive("must be a positive number of seconds").optional(),
  allow_http: z.boolean().default(false),
  oauth: z.looseObject({ allow_authorization_header: z.boolean().optional() }).optional(),
  share: shareSchema.optional(),
});

/**
 * Replaces `~` or a leading `~/` with the home directory and makes the path absolute.
 *
 * @param path - a file path as an operator writes it.
 * @returns the absolute path.
 */
export function expandHomePath(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return resolvePath(homedir(), path.slice(2));
  return resolvePath(path);
}

/**
 * Reads and validates a configuration file. An empty file is a configuration with no servers.
 *
 * @param path - the file; `~` is expanded. Defaults to {@link defaultMcpConfigPath}.
 * @param options - environment for header interpolation.
 * @returns the validated configuration, with `source` set to the absolute path.
 * @throws McpConfigError when the file is missing or unreadable, or fails {@link parseMcpConfig}.
 */
export async function loadMcpConfig(
  path: string = defaultMcpConfigPath,
  options: Omit<ParseMcpConfigOptions, "source"> = {},
): Promise<McpConfig> {
  const absolutePath = expandHomePath(path);
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new McpConfigError(
        `The MCP client configuration file does not exist. Looked for ${absolutePath}; create it or name another file.`,
      );
    }
    throw new McpConfigError(
      `${processingFailed}: ${absolutePath} could not be read (${code ?? "unknown error"}). Check the path and its permissions.`,
    );
  }
  return parseMcpConfig(text, { ...options, source: absolutePath });
}

/**
 * Validates a configuration given as JSON text or as an already parsed value. Empty (or blank)
 * text is a configuration with no servers. Every entry is validated; unknown keys are ignored.
 *
 * @param input - the file's text, or the parsed object.
 * @param options - `env` for `${NAME}` in header values (default `process.env`); `source` names
 *   the configuration in messages.
 * @returns the servers by name, the untouched `host` section if present, and `source`.
 * @throws McpConfigError for invalid JSON, a missing `mcpServers` object, a duplicated server
 *   name, or any invalid entry.
 */
export function parseMcpConfig(input: unknown, options: ParseMcpConfigOptions = {}): McpConfig {
  const env = options.env ?? process.env;
  let document: unknown = input;
  if (typeof input === "string") {
    // Some editors save JSON with a byte order mark, which JSON.parse refuses.
    const text = input.replace(/^\uFEFF/, "");
    if (text.trim() === "") return withSource({ servers: {} }, options.source);
    document = parseJson(text);
    const duplicate = findDuplicateServerKey(text);
    if (duplicate?.where === "root") {
      throw new McpConfigError(
        `${notUniquelyNamed} The file has more than one "mcpServers" object; merge them into one.`,
      );
    }
    if (duplicate !== undefined) {
      throw new McpConfigError(
        `${notUniquelyNamed} The name "${duplicate.key}" appears more than once in "mcpServers"; rename or remove one of the entries.`,
        duplicate.key,
      );
    }
  }
  if (!isPlainObject(document) || !isPlainObject(document["mcpServers"])) {
    throw new McpConfigError(
      `${processingFailed}: the configuration needs a top-level "mcpServers" object with one entry per server.`,
    );
  }
  const entries = Object.entries(document["mcpServers"]).map(
    ([name, entry]) => [name, parseServerEntry(name, entry, env)] as const,
  );
  const config: McpConfig = { servers: Object.fromEntries(entries) };
  if (Object.hasOwn(document, "host")) config.host = document["host"];
  return withSource(config, options.source);
}

/**
 * The share mode that applies to an entry: its own `share`, else `"process"` for stdio servers
 * (one child process is shared) and `"conversation"` for remote ones (each conversation keeps
 * its own server session).
 *
 * @param server - a validated entry.
 * @returns the mode to use.
 */
export function effectiveShareMode(server: McpServerConfig): McpShareMode {
  return server.share ?? (server.kind === "stdio" ? "process" : "conversation");
}

/**
 * Picks entries by exact name. No names, or an empty list, selects every server.
 *
 * @param config - a validated configuration.
 * @param names - exact server names; repeated names are selected once.
 * @returns the selected entries, in the order named (file order when selecting all).
 * @throws McpConfigError when a name is not configured exactly (case and spacing count).
 */
export function selectServers(config: McpConfig, names?: readonly string[]): McpServerConfig[] {
  if (names === undefined || names.length === 0) return Object.values(config.servers);
  const unknown = names.filter((name) => typeof name !== "string" || !hasServer(config, name));
  if (unknown.length > 0) {
    const listed = unknown.map((name) => JSON.stringify(String(name))).join(", ");
    const known = Object.keys(config.servers)
      .map((name) => JSON.stringify(name))
      .join(", ");
    throw new McpConfigError(
      `${unknownServers} Not configured: ${listed}. Configured: ${known === "" ? "none" : known}.`,
    );
  }
  return [...new Set(names)].map((name) => config.servers[name] as McpServerConfig);
}

/**
 * Picks the one entry with exactly this name.
 *
 * @param config - a validated configuration.
 * @param name - the exact server name.
 * @returns the entry.
 * @throws McpConfigError "Select one exact, uniquely named MCP server configuration." when the
 *   name is empty or not configured.
 */
export function selectServer(config: McpConfig, name: string): McpServerConfig {
  if (typeof name !== "string" || name === "" || !hasServer(config, name)) {
    throw new McpConfigError(
      `${notUniquelyNamed} No server is configured under the name ${JSON.stringify(String(name))}.`,
    );
  }
  return config.servers[name] as McpServerConfig;
}

function hasServer(config: McpConfig, name: string): boolean {
  return Object.hasOwn(config.servers, name);
}

function withSource(config: McpConfig, source: string | undefined): McpConfig {
  if (source !== undefined) config.source = source;
  return config;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseServerEntry(
  name: string,
  entry: unknown,
  env: Record<string, string | undefined>,
): McpServerConfig {
  if (!isPlainObject(entry) || (entry["url"] == null && entry["command"] == null)) {
    throw new McpConfigError(`${needsUrlOrCommand} Fix the entry "${name}".`, name);
  }
  // `url` wins when both are present, as in mcptools.
  return entry["url"] != null ? parseRemoteEntry(name, entry, env) : parseStdioEntry(name, entry);
}

function parseStdioEntry(name: string, entry: Record<string, unknown>): McpStdioServerConfig {
  const parsed = validateEntry(name, stdioEntrySchema, entry);
  const server: McpStdioServerConfig = {
    kind: "stdio",
    name,
    command: parsed.command,
    args: parsed.args,
    env: parsed.env,
  };
  if (parsed.timeout !== undefined) server.timeout = parsed.timeout;
  if (parsed.share !== undefined) server.share = parsed.share;
  return server;
}

function parseRemoteEntry(
  name: string,
  entry: Record<string, unknown>,
  env: Record<string, string | undefined>,
): McpRemoteServerConfig {
  const parsed = validateEntry(name, remoteEntrySchema, entry);
  let url: URL;
  try {
    url = new URL(parsed.url);
  } catch {
    url = new URL("invalid:");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    // The URL itself is not repeated: it may carry a token in its query or userinfo.
    throw new McpConfigError(
      `MCP server "${name}": url must be an absolute http:// or https:// address.`,
      name,
    );
  }
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(parsed.headers)) {
    if (reservedHeaders.includes(header.toLowerCase())) {
      throw new McpConfigError(
        `MCP server "${name}" sets the reserved header "${header}". Remove it: the client sets Accept, Content-Type, MCP-Session-Id and MCP-Protocol-Version itself.`,
        name,
      );
    }
    headers[header] = interpolate(name, header, value, env);
  }
  const hasAuthorization = Object.keys(headers).some(
    (header) => header.toLowerCase() === "authorization",
  );
  if (
    hasAuthorization &&
    parsed.oauth !== undefined &&
    parsed.oauth.allow_authorization_header !== true
  ) {
    throw new McpConfigError(
      `MCP server "${name}" sets both an Authorization header and oauth. Remove one of them, or set "oauth": { "allow_authorization_header": true } to send both.`,
      name,
    );
  }
  const credentialed =
    Object.keys(headers).length > 0 || url.username !== "" || url.password !== "";
  if (
    url.protocol === "http:" &&
    credentialed &&
    !isLoopbackHost(url.hostname) &&
    !parsed.allow_http
  ) {
    throw new McpConfigError(
      `MCP server "${name}" would send credentials over plain http:// to ${url.hostname}. Use an https:// url, or set "allow_http": true if that network is trusted.`,
      name,
    );
  }
  const server: McpRemoteServerConfig = {
    kind: "remote",
    name,
    url: parsed.url,
    headers,
    allowHttp: parsed.allow_http,
  };
  if (parsed.timeout !== undefined) server.timeout = parsed.timeout;
  if (parsed.share !== undefined) server.share = parsed.share;
  return server;
}

function validateEntry<Schema extends z.ZodType>(
  name: string,
  schema: Schema,
  entry: Record<string, unknown>,
): z.output<Schema> {
  const result = schema.safeParse(entry);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? "entry" : issue.path.join(".");
  // zod's messages describe types and limits, never the value, so no secret leaks here.
  throw new McpConfigError(
    `MCP server "${name}" has an invalid "${field}": ${issue?.message ?? "invalid value"}. Fix the entry in the configuration.`,
    name,
  );
}

function interpolate(
  server: string,
  header: string,
  value: string,
  env: Record<string, string | undefined>,
): string {
  return value.replace(/\$\{([^}]*)\}/g, (_match, variable: string) => {
    const replacement = Object.hasOwn(env, variable) ? env[variable] : undefined;
    if (replacement === undefined) {
      throw new McpConfigError(
        `MCP server "${server}": header "${header}" uses \${${variable}}, but the environment variable ${variable} is not set. Set it before starting, or change the header.`,
        server,
      );
    }
    return replacement;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // V8's own message can quote a slice of the file, which may hold a secret: report only where
    // (jsonc-parser's first syntax error, as a line and a column).
    const where = firstSyntaxError(text);
    throw new McpConfigError(
      `${processingFailed}: the configuration is not valid JSON${where === undefined ? "" : ` (${where})`}. Fix the syntax and try again.`,
    );
  }
}

/** Where the first syntax error of `text` is (`line 2, column 23`), or undefined when none is found. */
function firstSyntaxError(text: string): string | undefined {
  let where: string | undefined;
  visit(
    text,
    {
      onError: (_error, _offset, _length, startLine, startCharacter) => {
        where ??= `line ${startLine + 1}, column ${startCharacter + 1}`;
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return where;
}

/**
 * Finds a key that appears twice in the top-level object as `mcpServers`, or in an `mcpServers`
 * object, of valid JSON text. JSON.parse keeps only the last of duplicated keys, silently.
 */
function findDuplicateServerKey(
  text: string,
): { key: string; where: "root" | "servers" } | undefined {
  // One key set per open object; null for objects whose keys are not checked.
  const open: Array<Set<string> | null> = [];
  let found: { key: string; where: "root" | "servers" } | undefined;
  visit(text, {
    onObjectBegin: (_offset, _length, _line, _character, pathSupplier) => {
      const path = pathSupplier();
      const checked = path.length === 0 || (path.length === 1 && path[0] === "mcpServers");
      open.push(checked ? new Set() : null);
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, _offset, _length, _line, _character, pathSupplier) => {
      const keys = open.at(-1);
      if (found !== undefined || keys === null || keys === undefined) return;
      const root = pathSupplier().length === 0;
      // At the top level only `mcpServers` itself must be unique.
      if (root && key !== "mcpServers") return;
      if (keys.has(key)) found = { key, where: root ? "root" : "servers" };
      keys.add(key);
    },
  });
  return found;
}
