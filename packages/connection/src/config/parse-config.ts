// Validating the `mcpServers` configuration: every entry, stdio or remote, against its schema,
// with `${VARIABLE}` in header values replaced from the environment.
import { isAbsolute } from "node:path";
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import { z } from "zod";
import { McpConfigError, notUniquelyNamed, processingFailed } from "./config-error";
import { findDuplicateServerKey, parseJson } from "./config-json";
import type {
  McpConfig,
  McpRemoteServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
} from "./config-types";

/** Options of {@link parseMcpConfig} and {@link loadMcpConfig}. */
export interface ParseMcpConfigOptions {
  /** Variables for `${NAME}` in header values. Defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** A file path or label naming the configuration in messages. */
  source?: string;
}

const needsUrlOrCommand = "Each server must have either url or command.";

// The transport sets these itself; letting a configuration override them breaks the protocol.
const reservedHeaders = ["accept", "content-type", "mcp-session-id", "mcp-protocol-version"];

const shareSchema = z.enum(["process", "conversation"]);

const absolutePath = z
  .string()
  .refine((path) => isAbsolute(path), "must be absolute paths (starting with /)");

// `box: false`, or what the box lets the server reach. Unknown keys are refused here (unlike the
// rest of the file): a misspelt "write" would quietly leave the server without its folder.
const boxSchema = z.union(
  [
    z.literal(false),
    z.strictObject({
      network: z.boolean().optional(),
      read: z.array(absolutePath).optional(),
      write: z.array(absolutePath).optional(),
    }),
  ],
  {
    error:
      'must be false, or an object with "network" (true or false), "read" and "write" (lists of absolute paths)',
  },
);

const stdioEntrySchema = z.object({
  command: z.string().min(1, "must be a non-empty string"),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  timeout: z.number().positive("must be a positive number of seconds").optional(),
  share: shareSchema.optional(),
  box: boxSchema.optional(),
});

const remoteEntrySchema = z.object({
  url: z.string().min(1, "must be a non-empty string"),
  headers: z.record(z.string(), z.string()).default({}),
  timeout: z.number().positive("must be a positive number of seconds").optional(),
  allow_http: z.boolean().default(false),
  oauth: z
    .looseObject({
      allow_authorization_header: z.boolean().optional(),
      client_id: z.string().min(1, "must be a non-empty string").optional(),
      client_secret: z.string().min(1, "must be a non-empty string").optional(),
      scopes: z
        .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, "must be scope tokens"))
        .optional(),
    })
    .optional(),
  share: shareSchema.optional(),
});

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
  if (parsed.box !== undefined) {
    server.box =
      parsed.box === false
        ? false
        : {
            network: parsed.box.network ?? true,
            read: parsed.box.read ?? [],
            write: parsed.box.write ?? [],
          };
  }
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
  if (parsed.oauth !== undefined) {
    const { client_id: clientId, client_secret: secret, scopes } = parsed.oauth;
    if (secret !== undefined && clientId === undefined) {
      throw new McpConfigError(
        `MCP server "${name}" sets oauth.client_secret without oauth.client_id. Add the client id the authorization server registered, or remove the secret.`,
        name,
      );
    }
    server.oauth = {
      ...(clientId === undefined ? {} : { clientId }),
      ...(secret === undefined
        ? {}
        : { clientSecret: interpolate(name, "oauth.client_secret", secret, env) }),
      ...(scopes === undefined ? {} : { scopes }),
    };
  }
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
