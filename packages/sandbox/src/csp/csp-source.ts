// Validation of the origins an app lists in `_meta.ui.csp`. Each accepted entry becomes one
// CSP source expression; anything that could widen the policy beyond "these origins" is dropped.
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import type { RejectionCode } from "../rejection";

/** Longest entry accepted; real origins are far shorter, and the list travels in a URL. */
export const maximumCspSourceLength = 255;

/** The result of {@link checkCspSource}: the normalised source, or why it was refused. */
export type CspSourceCheck =
  { ok: true; source: string } | { ok: false; code: RejectionCode; reason: string };

/** An entry after parsing: scheme, host without the `*.`, and the port when one was written. */
interface ParsedSource {
  scheme: string;
  wildcard: boolean;
  hostname: string;
  port: number | undefined;
}

// `;` and `,` end a directive or a policy; quotes start keywords; whitespace separates sources.
const unsafeCharacters = /[;,'"\s\p{Cc}\p{Cf}\\]/u;
const schemeOnly = /^[a-z][a-z0-9+.-]*:$/i;
const originShape = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/is;
const allowedSchemes = new Set(["https", "wss", "http", "ws"]);
const hostnameLabel = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const defaultPorts: Record<string, number> = { http: 80, ws: 80, https: 443, wss: 443 };

function refuse(code: RejectionCode, reason: string): CspSourceCheck {
  return { ok: false, code, reason };
}

function parseSource(value: string, guard = false): ParsedSource | CspSourceCheck {
  const match = originShape.exec(value);
  if (!match) {
    return refuse(
      "not_an_origin",
      "Not an origin; write scheme://host[:port], e.g. https://api.example.com.",
    );
  }
  const scheme = (match[1] ?? "").toLowerCase();
  let authority = match[2] ?? "";
  const rest = match[3] ?? "";
  if (!allowedSchemes.has(scheme)) {
    return refuse(
      "not_an_origin",
      `The scheme "${scheme}:" is not allowed; only https and wss origins (http and ws for this machine) are.`,
    );
  }
  if (rest !== "" && rest !== "/") {
    return refuse(
      "not_an_origin",
      "Has a path, query or fragment; a CSP entry here must be an origin only.",
    );
  }
  if (authority.includes("@")) {
    return refuse("not_an_origin", "Carries user information; write the origin only.");
  }
  const wildcard = authority.startsWith("*.");
  if (wildcard) authority = authority.slice(2);
  if (authority.includes("*")) {
    return refuse(
      "not_an_origin",
      "A wildcard is allowed only as the first label (https://*.example.com), not in a port or elsewhere.",
    );
  }
  let url: URL;
  try {
    url = new URL(`${scheme}://${authority}`);
  } catch {
    return refuse("not_an_origin", "The host or port does not parse; write scheme://host[:port].");
  }
  // The URL parser rewrites numeric and unicode hosts (0x7f.1 -> 127.0.0.1, IDN -> punycode);
  // comparing and emitting its form means an alias cannot slip past the host-origin check.
  const hostname = url.hostname;
  const labels = hostname.split(".");
  const isAddress = ipv4.test(hostname) || /^\[[0-9a-f:.]+\]$/.test(hostname);
  if (!isAddress && !labels.every((label) => hostnameLabel.test(label))) {
    return refuse("not_an_origin", "The host name is not a valid DNS name.");
  }
  if (wildcard && isAddress) {
    return refuse("not_an_origin", "A wildcard cannot stand in front of an IP address.");
  }
  // A guarded pattern may cover a whole top-level name (`http://*.localhost:41234`).
  if (wildcard && labels.length < 2 && !guard) {
    return refuse(
      "broad_wildcard",
      "A wildcard over a single label matches whole top-level domains; name the site, e.g. https://*.example.com.",
    );
  }
  return { scheme, wildcard, hostname, port: url.port === "" ? undefined : Number(url.port) };
}

function isParsed(value: ParsedSource | CspSourceCheck): value is ParsedSource {
  return !("ok" in value);
}

function effectivePort(scheme: string, port: number | undefined): number | undefined {
  return port ?? defaultPorts[scheme];
}

/** Whether two host names, either of them possibly a `*.` wildcard, can name the same host. */
function namesOverlap(source: ParsedSource, guarded: ParsedSource): boolean {
  if (isLoopbackHost(source.hostname) && isLoopbackHost(guarded.hostname)) return true;
  const a = source.hostname;
  const b = guarded.hostname;
  if (source.wildcard && guarded.wildcard)
    return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
  if (source.wildcard) return b.endsWith(`.${a}`);
  if (guarded.wildcard) return a.endsWith(`.${b}`);
  return a === b;
}

/**
 * Whether a parsed source would let the view reach a guarded origin (the host's, or the
 * sandbox's own). Errs on the side of refusing: the scheme is ignored (CSP lets `http:` match
 * `https:` and `ws:` reach the same server), two loopback names on the same port count as the
 * same machine, and wildcards on either side are expanded.
 */
function reaches(source: ParsedSource, guarded: ParsedSource): boolean {
  const guardedPort = effectivePort(guarded.scheme, guarded.port);
  const sourcePort = effectivePort(source.scheme, source.port);
  // CSP matches a portless source against a URL on the scheme's default port, including the
  // http -> https upgrade (80 -> 443).
  const portMatches =
    sourcePort === guardedPort || (source.port === undefined && guarded.port === undefined);
  return portMatches && namesOverlap(source, guarded);
}

/**
 * Checks one entry of an app's CSP domain list and normalises it.
 *
 * Accepted: `https://host[:port]`, `https://*.example.com`, `wss://host[:port]`, and `http://` or
 * `ws://` to this machine (`localhost`, `127.0.0.1`, `[::1]`), with an optional trailing `/`.
 * Refused: anything holding `; , ' "`, whitespace or control characters; `*`; a scheme alone
 * (`https:`, `data:`, `blob:`); keywords; paths, queries, user information; other schemes; plain
 * http elsewhere; a wildcard over one label; any entry that would match the host's own origin
 * (`names_host_origin`); and any that would match one of `reservedOrigins`, the sandbox's own
 * origins (`names_sandbox_origin`: a view that could frame or fetch its own or the proxy's origin
 * would get a fresh page there, outside the view's policy).
 *
 * @param value - the entry as the app wrote it.
 * @param hostOrigin - the chat host's origin, already normalised.
 * @param reservedOrigins - further origins or `scheme://*.suffix[:port]` patterns no entry may match.
 * @returns `{ ok: true, source }` with the lower-case `scheme://host[:port]`, or a refusal; never throws.
 */
export function checkCspSource(
  value: string,
  hostOrigin: string,
  reservedOrigins: readonly string[] = [],
): CspSourceCheck {
  if (value.length > maximumCspSourceLength) {
    return refuse("too_long", `Longer than ${maximumCspSourceLength} characters.`);
  }
  if (unsafeCharacters.test(value)) {
    return refuse(
      "unsafe_character",
      "Contains a separator, quote, backslash, whitespace or control character that could add directives.",
    );
  }
  if (value === "*" || value.startsWith("*:") || value.startsWith("*/")) {
    return refuse(
      "not_an_origin",
      "A bare wildcard allows every origin; list the origins the view needs.",
    );
  }
  if (schemeOnly.test(value)) {
    return refuse(
      "not_an_origin",
      `A scheme alone ("${value}") allows every origin of that scheme; list origins instead.`,
    );
  }
  const parsed = parseSource(value);
  if (!isParsed(parsed)) return parsed;
  if ((parsed.scheme === "http" || parsed.scheme === "ws") && !isLoopbackHost(parsed.hostname)) {
    return refuse(
      "insecure_scheme",
      `Plain ${parsed.scheme}: is allowed only for this machine; use ${parsed.scheme}s:// for other hosts.`,
    );
  }
  const host = parseSource(hostOrigin, true);
  // A guard that does not parse refuses everything: fail closed.
  if (!isParsed(host) || reaches(parsed, host)) {
    return refuse(
      "names_host_origin",
      "Matches the chat host's own origin; a view may never reach the host directly.",
    );
  }
  for (const reserved of reservedOrigins) {
    const guarded = parseSource(reserved, true);
    if (!isParsed(guarded) || reaches(parsed, guarded)) {
      return refuse(
        "names_sandbox_origin",
        "Matches one of the sandbox's own origins; a view may not frame, fetch or load from the sandbox.",
      );
    }
  }
  const port = parsed.port === undefined ? "" : `:${parsed.port}`;
  return {
    ok: true,
    source: `${parsed.scheme}://${parsed.wildcard ? "*." : ""}${parsed.hostname}${port}`,
  };
}
