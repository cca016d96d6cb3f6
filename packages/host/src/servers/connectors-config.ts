// The configuration's `host.connectors`: whether people may add remote MCP servers of their own
// (connectors), and which addresses they may add. Off unless the operator sets it: a server a
// person names is reached from the host's network, so the operator lists what may be reached.
import type { McpConfig } from "@mcp-chat-host/connection";
import type { ConnectorPolicy } from "../session/connector-policy";

/** One `allow` pattern, compiled. */
interface AllowPattern {
  /** The pattern as the operator wrote it (shown to people as a hint). */
  text: string;
  protocol: "https:" | "http:";
  host: RegExp;
  /** The port, `*` for any, or "" for the scheme's default. */
  port: string;
  /** The exact path, or (ending in `/`) the prefix every path must start with. */
  path: string;
  anyPath: boolean;
}

function mistake(what: string): Error {
  return new Error(`host.connectors${what} Fix it in the configuration file.`);
}

/**
 * Compiles one pattern: a full URL where `*` in the host stands for one or more characters of
 * one label (never a dot), `*` as the port for any port, and a trailing `/*` for any path below.
 *
 * @throws {Error} with a sentence naming the pattern when it is not of that form.
 */
function compilePattern(text: string): AllowPattern {
  const shown = JSON.stringify(text.slice(0, 200));
  const parts = /^(https?):\/\/([a-z0-9*.-]+)(?::(\d{1,5}|\*))?(\/[^?#]*)?$/i.exec(text);
  const host = parts?.[2]?.toLowerCase();
  const path = parts?.[4] ?? "/";
  if (parts === null || host === undefined) {
    throw mistake(
      `.allow has ${shown}, which is not a pattern such as "https://*.example.com/*" (a full https URL, with * only in the host, as the port, or as a trailing /*).`,
    );
  }
  const labels = host.split(".");
  if (labels.some((label) => label === "" || /\*\*/.test(label))) {
    throw mistake(`.allow has ${shown}, whose host name has an empty label or two * in a row.`);
  }
  const anyPath = path.endsWith("/*");
  const fixedPath = anyPath ? path.slice(0, -1) : path;
  if (fixedPath.includes("*")) {
    throw mistake(`.allow has ${shown}; * in a path is accepted only as a trailing /*.`);
  }
  const hostPattern = labels
    .map((label) => label.replace(/[.+?^${}()|[\]\\-]/g, "\\$&").replace(/\*/g, "[^.]+"))
    .join("\\.");
  return {
    text,
    protocol: parts[1]!.toLowerCase() === "http" ? "http:" : "https:",
    host: new RegExp(`^${hostPattern}$`),
    port: parts[3] ?? "",
    path: fixedPath,
    anyPath,
  };
}

function matches(pattern: AllowPattern, url: URL): boolean {
  if (url.protocol !== pattern.protocol || !pattern.host.test(url.hostname.toLowerCase())) {
    return false;
  }
  if (pattern.port !== "*" && url.port !== pattern.port) return false;
  return pattern.anyPath ? url.pathname.startsWith(pattern.path) : url.pathname === pattern.path;
}

/**
 * The configuration's `host.connectors`, e.g.
 * `{ "allow": ["https://*.example.com/*"], "allowLoopback": false }`.
 *
 * @returns the policy, or undefined when the section does not set it (people add no servers).
 * @throws {Error} with a sentence naming the field when `connectors` is not an object, `allow` is
 *   not a list of at least one pattern, a pattern is not of the accepted form, `allowLoopback` is
 *   not true or false, or another field is set.
 */
export function connectorsFromConfig(config: McpConfig | null): ConnectorPolicy | undefined {
  const section = config?.host;
  if (section === null || typeof section !== "object") return undefined;
  const value = (section as Record<string, unknown>)["connectors"];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw mistake(
      ` must be an object such as { "allow": ["https://*.example.com/*"] }, not ${JSON.stringify(value)}.`,
    );
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => key !== "allow" && key !== "allowLoopback");
  if (unknown.length > 0) {
    throw mistake(
      ` takes only "allow" and "allowLoopback", not ${unknown.map((key) => JSON.stringify(key)).join(", ")}.`,
    );
  }
  const allow = fields["allow"];
  if (!Array.isArray(allow) || allow.length === 0) {
    throw mistake(
      `.allow must list at least one address pattern, such as ["https://*.example.com/*"].`,
    );
  }
  const patterns = allow.map((text: unknown) => {
    if (typeof text !== "string") {
      throw mistake(`.allow must hold only strings, not ${JSON.stringify(text)}.`);
    }
    return compilePattern(text);
  });
  const allowLoopback = fields["allowLoopback"] ?? false;
  if (typeof allowLoopback !== "boolean") {
    throw mistake(`.allowLoopback must be true or false, not ${JSON.stringify(allowLoopback)}.`);
  }
  return {
    patterns: patterns.map((pattern) => pattern.text),
    allowLoopback,
    allows: (url) => patterns.some((pattern) => matches(pattern, url)),
  };
}
