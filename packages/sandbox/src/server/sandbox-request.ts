// What a sandbox origin answers, as plain data, so the server can mount it on any HTTP stack. The
// proxy origin serves the proxy page and its script; each view origin serves the view's document
// at a signed URL. Nothing else is served anywhere.
import { httpOrigin } from "@mcp-chat-host/protocol";
import { buildContentSecurityPolicy } from "../csp/content-security-policy";
import { buildAllowAttribute } from "../frame/allow-attribute";
import { sandboxOrigins, sourcePlaceholder, type SandboxOrigins } from "../origins/sandbox-origins";
import { decodeBase64UrlJson, encodeBase64UrlJson } from "../params/base64url-json";
import { decodeProxyParams, proxyPagePath, proxyScriptPath } from "../params/proxy-params";
import { verifyProxyUrl, type ProxyUrlRefusal } from "../params/signed-proxy-url";
import type { SigningKey } from "../params/signing-key";
import { signViewUrl, verifyViewUrl, viewPagePath } from "../params/view-url";
import { proxyPageCsp, renderProxyPage } from "../proxy/proxy-page";
import { proxyScript, proxyScriptHash } from "../proxy/proxy-script";
import { rejection, type Rejection } from "../rejection";
import type { McpUiResourceCsp } from "../resource-metadata";
import { SandboxConfigurationError } from "../sandbox-error";
import { renderViewPage } from "../view/view-page";
import { warmPagePath, warmViewParam } from "../params/warm-page-params";
import { renderWarmPage } from "./warm-page";

/** Options of {@link handleSandboxRequest}. */
export interface SandboxRequestOptions {
  /** The chat page's origins; a proxy URL must name one of them (`host=`), which may embed it. */
  hostOrigins: readonly string[];
  /** The sandbox's origin template, e.g. `http://{source}.localhost:41234`. */
  originTemplate: string;
  /**
   * The key proxy and view URLs are signed with (at least 32 bytes): the host signs each card's
   * proxy URL with it, so give this server the same one; keep it on the servers.
   */
  signingKey: SigningKey;
  /** The request method; anything but GET and HEAD gets 405. Absent means GET. */
  method?: string;
  /** The clock for proxy URL expiry, in ms since the epoch (default `Date.now`). */
  now?: (() => number) | undefined;
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
 * origin only, never a signed URL; some services (map tiles) refuse requests with no referrer.
 * `Origin-Agent-Cluster: ?1` keeps `document.domain` from ever joining two sandbox origins.
 */
const commonHeaders = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Origin-Agent-Cluster": "?1",
} as const;

/** A page that runs nothing and shows one sentence. */
function plain(status: number, body: string, extra: Record<string, string> = {}): SandboxResponse {
  return {
    status,
    headers: {
      ...commonHeaders,
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      ...extra,
    },
    body,
    rejected: [],
  };
}

/** What a refused proxy URL's page says: the code first, then what to do. */
const refusedProxyUrl: Record<ProxyUrlRefusal, string> = {
  not_signed:
    "not_signed: this sandbox address was not given out by the chat host, or was changed. Open the app from the chat.\n",
  expired:
    "expired: this sandbox address is more than a day old. Reload the chat page to open the app again.\n",
};

/** The sandbox's own origins as CSP patterns, which no view may declare. */
function reservedOrigins(origins: SandboxOrigins): string[] {
  return [origins.template.replace(sourcePlaceholder, "*")];
}

async function answerProxy(
  url: URL,
  origins: SandboxOrigins,
  options: SandboxRequestOptions,
  hostOrigins: readonly string[],
): Promise<SandboxResponse> {
  if (url.pathname === proxyScriptPath) {
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
  if (url.pathname !== proxyPagePath) return plain(404, "Not found.\n");
  // Before anything is read: only what the host decided and signed gets a view URL.
  const check = await verifyProxyUrl(url, options.signingKey, (options.now ?? Date.now)());
  if (!check.ok) {
    return {
      ...plain(403, refusedProxyUrl[check.reason]),
      rejected: [
        rejection(
          "sig",
          "",
          check.reason,
          check.reason === "expired"
            ? "A proxy URL past its expiry; no proxy page."
            : "A proxy URL the host did not sign, or changed; no proxy page.",
        ),
      ],
    };
  }
  const decoded = decodeProxyParams(url.searchParams);
  const host = decoded.host === undefined ? undefined : httpOrigin(decoded.host);
  if (host === undefined || !hostOrigins.includes(host)) {
    return {
      ...plain(403, "This sandbox serves only its own chat host's pages.\n"),
      rejected: [
        ...decoded.rejected,
        rejection(
          "host",
          decoded.host ?? "",
          "not_a_host_origin",
          "Not one of the host's origins.",
        ),
      ],
    };
  }
  const label = decoded.view ?? "";
  let viewOrigin: string;
  try {
    viewOrigin = origins.viewOrigin(label);
  } catch {
    return {
      ...plain(404, "There is no such app view here.\n"),
      rejected: [
        ...decoded.rejected,
        rejection("view", label, "malformed_parameter", "Not a source's label."),
      ],
    };
  }
  const policy = buildContentSecurityPolicy(decoded.csp, {
    hostOrigin: host,
    // frame-ancestors checks every ancestor: the proxy, and the host page above it.
    frameAncestors: [origins.proxyOrigin, host],
    reservedOrigins: reservedOrigins(origins),
  });
  // The view URL carries what was accepted, so the view's header is built from checked values.
  const viewUrl = await signViewUrl(
    viewOrigin,
    {
      host,
      csp: policy.applied === undefined ? undefined : encodeBase64UrlJson(policy.applied),
    },
    options.signingKey,
  );
  return {
    status: 200,
    headers: {
      ...commonHeaders,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": proxyPageCsp(host, viewUrl, await proxyScriptHash()),
    },
    body: renderProxyPage({
      hostOrigin: host,
      viewUrl,
      allow: buildAllowAttribute(decoded.permissions),
    }),
    rejected: [...decoded.rejected, ...policy.rejected],
  };
}

async function answerView(
  url: URL,
  origins: SandboxOrigins,
  options: SandboxRequestOptions,
  hostOrigins: readonly string[],
): Promise<SandboxResponse> {
  if (url.pathname !== viewPagePath) return plain(404, "Not found.\n");
  const ticket = await verifyViewUrl(url, options.signingKey);
  if (ticket === undefined || !hostOrigins.includes(ticket.host)) {
    return plain(403, "This address is not a view this sandbox gave out.\n");
  }
  let csp: McpUiResourceCsp | undefined;
  try {
    csp =
      ticket.csp === undefined ? undefined : (decodeBase64UrlJson(ticket.csp) as McpUiResourceCsp);
  } catch {
    return plain(403, "This address is not a view this sandbox gave out.\n");
  }
  const policy = buildContentSecurityPolicy(csp, {
    hostOrigin: ticket.host,
    frameAncestors: [origins.proxyOrigin, ticket.host],
    reservedOrigins: reservedOrigins(origins),
  });
  return {
    status: 200,
    headers: {
      ...commonHeaders,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `${policy.header}; require-trusted-types-for 'script'`,
      // DNS prefetching is the one lookup a page can start that no CSP directive governs.
      "X-DNS-Prefetch-Control": "off",
    },
    body: renderViewPage({ proxyOrigin: origins.proxyOrigin }),
    rejected: [],
  };
}

/**
 * Answers one HTTP request to a sandbox origin.
 *
 * On the proxy origin (the template filled with `proxy`):
 * - `GET /proxy?host=...&view=...&csp=...&permissions=...&exp=...&sig=...`: the proxy page, for a
 *   URL signed with `signingKey` by `signProxyUrl` and not expired (else 403, `not_signed` or
 *   `expired`), a `host` that is one of `hostOrigins` (else 403) and a `view` that is a source
 *   label (else 404). Its script
 *   is inline, admitted by its hash; its own CSP admits one frame, the view's signed URL, and `frame-ancestors` = that host; the page carries
 *   the view URL and the inner frame's `allow` from `permissions`.
 * - `GET /proxy.js`: the proxy script (the page inlines it; served for pages that name it).
 *
 * On a view origin (the template filled with a source's label):
 * - `GET /view?host=...&csp=...&sig=...` with a valid signature: the view's document (the
 *   loader), with the view's CSP as its header (built from the declared `csp` that the proxy
 *   accepted; `frame-ancestors` = the proxy), plus `require-trusted-types-for 'script'`. A bad
 *   signature gets 403.
 *
 * On every sandbox origin, `GET /warm`: an empty document that runs and loads nothing, which the
 * chat page keeps in a hidden frame so the browser starts the sandbox's processes early; on the
 * proxy's origin, `?view=<label>` adds one inert frame on that view origin's `/warm`.
 *
 * Anything else: 404 (421 for an origin that is none of the sandbox's); methods other than
 * GET/HEAD: 405. Every answer carries `Cache-Control: no-store`, `X-Content-Type-Options:
 * nosniff` and `Origin-Agent-Cluster: ?1`; the error pages carry a CSP that runs nothing.
 *
 * @param url - the absolute URL that was requested (its origin says which sandbox origin).
 * @returns status, headers, body and the rejected values; never throws for request input.
 * @throws {SandboxConfigurationError} when the template, a host origin or the key is unusable.
 */
export async function handleSandboxRequest(
  url: string | URL,
  options: SandboxRequestOptions,
): Promise<SandboxResponse> {
  const origins = sandboxOrigins(options.originTemplate);
  const hostOrigins = options.hostOrigins.map((origin) => {
    const normal = httpOrigin(origin);
    if (normal === undefined) {
      throw new SandboxConfigurationError(
        "invalid_host_origin",
        `The host origin "${origin}" is not an http(s) origin.`,
      );
    }
    return normal;
  });
  const method = (options.method ?? "GET").toUpperCase();
  if (method !== "GET" && method !== "HEAD") {
    return plain(405, "Only GET and HEAD are served here.\n", { Allow: "GET, HEAD" });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return plain(404, "Not found.\n");
  }
  const kind = origins.classify(parsed.origin);
  if (kind === undefined) return plain(421, "This is not one of the sandbox's origins.\n");
  if (parsed.pathname === warmPagePath) {
    const warm = renderWarmPage(
      origins,
      kind.kind,
      hostOrigins,
      parsed.searchParams.get(warmViewParam) ?? undefined,
    );
    return {
      status: 200,
      headers: {
        ...commonHeaders,
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": warm.csp,
      },
      body: warm.body,
      rejected: [],
    };
  }
  return kind.kind === "proxy"
    ? answerProxy(parsed, origins, options, hostOrigins)
    : answerView(parsed, origins, options, hostOrigins);
}
