// What a sandbox listener answers, as plain data, so the server can mount it on any HTTP stack.
// A sandbox origin serves exactly two things: the proxy page and its script.
import { buildContentSecurityPolicy } from "../csp/content-security-policy";
import { buildAllowAttribute } from "../frame/allow-attribute";
import { normalizeHostOrigin } from "../host-origin";
import { decodeProxyParams, proxyPagePath, proxyScriptPath } from "../params/proxy-params";
import { renderProxyPage } from "../proxy/proxy-page";
import { proxyScript } from "../proxy/proxy-script";
import type { Rejection } from "../rejection";

/** Options of {@link handleSandboxRequest}. */
export interface SandboxRequestOptions {
  /** The chat page's origin. */
  hostOrigin: string;
  /** Who may embed the proxy page; defaults to `[hostOrigin]`. */
  frameAncestors?: readonly string[];
  /** The request method; anything but GET and HEAD gets 405. Absent means GET. */
  method?: string;
}

/** The response to send: status, headers and body (send no body for HEAD). */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** For `/proxy`: the CSP and permission values that were dropped; log them with the card. */
  rejected: Rejection[];
}

/**
 * Headers on every answer. `Referrer-Policy: strict-origin-when-cross-origin` (the browser
 * default, written out) governs requests the proxy and the view make, and sends CDNs the sandbox
 * origin only, never the proxy URL; some services (map tiles) refuse requests with no referrer.
 * It does not change what the proxy reads from `document.referrer`: that comes from the host
 * page's own policy, which must not be `no-referrer` for browsers without
 * `location.ancestorOrigins`.
 */
const commonHeaders = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
} as const;

function plain(status: number, body: string, extra: Record<string, string> = {}): SandboxResponse {
  return {
    status,
    headers: { ...commonHeaders, "Content-Type": "text/plain; charset=utf-8", ...extra },
    body,
    rejected: [],
  };
}

/**
 * Answers one HTTP request to a sandbox origin.
 *
 * - `GET /proxy?csp=...&permissions=...`: the proxy page, with the `Content-Security-Policy` built
 *   from the decoded `csp` (spec default when absent or invalid; `frame-ancestors` = the host) and
 *   the inner frame's `allow` from `permissions`.
 * - `GET /proxy.js`: the proxy script.
 * - anything else: 404; methods other than GET/HEAD: 405.
 * Every answer carries `Cache-Control: no-store` (the page differs per card) and
 * `X-Content-Type-Options: nosniff`.
 *
 * @param url - the request target as received (`/proxy?csp=...`) or a full URL.
 * @returns status, headers, body and the rejected values; never throws for request input.
 * @throws {SandboxConfigurationError} when `hostOrigin` or `frameAncestors` is not an http(s) origin.
 */
export function handleSandboxRequest(
  url: string | URL,
  options: SandboxRequestOptions,
): SandboxResponse {
  const hostOrigin = normalizeHostOrigin(options.hostOrigin);
  const method = (options.method ?? "GET").toUpperCase();
  if (method !== "GET" && method !== "HEAD") {
    return plain(405, "Only GET and HEAD are served here.\n", { Allow: "GET, HEAD" });
  }
  let parsed: URL;
  try {
    // A request target ("/proxy?csp=...") is a path, even one starting with "//"; the made-up
    // origin only lets URL parse it. Only the path and the query are used.
    parsed =
      typeof url === "string" && url.startsWith("/")
        ? new URL(`http://sandbox.invalid${url}`)
        : new URL(url);
  } catch {
    return plain(404, "Not found.\n");
  }
  if (parsed.pathname === proxyScriptPath) {
    return {
      status: 200,
      headers: {
        ...commonHeaders,
        "Content-Type": "text/javascript; charset=utf-8",
        // Only the proxy page on this origin loads it.
        "Cross-Origin-Resource-Policy": "same-origin",
      },
      body: proxyScript,
      rejected: [],
    };
  }
  if (parsed.pathname !== proxyPagePath) return plain(404, "Not found.\n");
  const decoded = decodeProxyParams(parsed.searchParams);
  const policy = buildContentSecurityPolicy(decoded.csp, {
    hostOrigin,
    ...(options.frameAncestors === undefined ? {} : { frameAncestors: options.frameAncestors }),
  });
  return {
    status: 200,
    headers: {
      ...commonHeaders,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": policy.header,
    },
    body: renderProxyPage({ hostOrigin, allow: buildAllowAttribute(decoded.permissions) }),
    rejected: [...decoded.rejected, ...policy.rejected],
  };
}
