// The Content-Security-Policy header the sandbox origin sends with the proxy page. The view's
// document is the proxy's `srcdoc` child, which inherits this policy, so the header governs the
// view; it is an HTTP header rather than a <meta> so the view cannot edit it before it applies.
import { normalizeHostOrigin } from "../host-origin";
import { rejection, type Rejection } from "../rejection";
import { cspDomainFields, type CspDomainField, type McpUiResourceCsp } from "../resource-metadata";
import { SandboxConfigurationError } from "../sandbox-error";
import { checkCspSource } from "./csp-source";

/** Most entries kept per list; the rest are reported as `too_many`. */
export const maximumCspSourcesPerField = 32;

/**
 * The MCP Apps restrictive default (spec "Content Security Policy Enforcement", plus
 * `object-src`, `frame-src` and `base-uri` as the spec requires), used when a resource declares no
 * `csp`. `frame-ancestors` is appended per request.
 */
export const specDefaultCspDirectives = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'self'",
] as const;

/** Options of {@link buildContentSecurityPolicy}. */
export interface ContentSecurityPolicyOptions {
  /** The chat page's origin; no entry may match it. */
  hostOrigin: string;
  /** Origins allowed to embed the proxy page; defaults to `[hostOrigin]`. */
  frameAncestors?: readonly string[];
}

/** What {@link buildContentSecurityPolicy} produced. */
export interface ContentSecurityPolicy {
  /** The value of the `Content-Security-Policy` header. */
  header: string;
  /**
   * The declared domains that made it into the header (for `hostCapabilities.sandbox.csp` and the
   * audit log); undefined when the resource declared no `csp` and the spec default applies.
   */
  applied: Required<McpUiResourceCsp> | undefined;
  /** Entries that were dropped, with why; log them. */
  rejected: Rejection[];
}

function checkFrameAncestors(values: readonly string[]): string {
  if (values.length === 0) return "'none'";
  return values
    .map((value) => {
      let origin: string | undefined;
      try {
        const url = new URL(value);
        if (url.protocol === "http:" || url.protocol === "https:") origin = url.origin;
      } catch {
        origin = undefined;
      }
      if (origin === undefined || value.replace(/\/$/, "") !== origin) {
        throw new SandboxConfigurationError(
          "invalid_frame_ancestor",
          `The frame ancestor "${value}" is not an http(s) origin; list origins such as "http://127.0.0.1:3000".`,
        );
      }
      return origin;
    })
    .join(" ");
}

function validateField(
  field: CspDomainField,
  values: unknown,
  hostOrigin: string,
  rejected: Rejection[],
): string[] {
  const fieldName = `csp.${field}`;
  if (values === undefined) return [];
  if (!Array.isArray(values)) {
    rejected.push(rejection(fieldName, values, "wrong_type", "Must be a list of origins."));
    return [];
  }
  const accepted: string[] = [];
  for (const [index, value] of values.entries()) {
    if (index >= maximumCspSourcesPerField) {
      rejected.push(
        rejection(
          fieldName,
          `${values.length - index} more entries`,
          "too_many",
          `Only the first ${maximumCspSourcesPerField} entries are used.`,
        ),
      );
      break;
    }
    if (typeof value !== "string") {
      rejected.push(rejection(fieldName, value, "wrong_type", "Each entry must be a string."));
      continue;
    }
    const check = checkCspSource(value, hostOrigin);
    if (!check.ok) {
      rejected.push(rejection(fieldName, value, check.code, check.reason));
    } else if (!accepted.includes(check.source)) {
      accepted.push(check.source);
    }
  }
  return accepted;
}

function sources(base: string, extra: readonly string[]): string {
  return [base, ...extra].join(" ");
}

/**
 * Builds the Content-Security-Policy for one card's sandbox from the `_meta.ui.csp` its resource
 * declared.
 *
 * Without `csp`: exactly {@link specDefaultCspDirectives}. With `csp`: `connect-src` from
 * `connectDomains` (else `'none'`); `resourceDomains` added to `script-src`, `style-src`,
 * `img-src`, `font-src` and `media-src` (which keep `'self'`, `'unsafe-inline'` for scripts and
 * styles, and `data:` for images, fonts and media); `frame-src` from `frameDomains` (else
 * `'none'`); `base-uri` from `baseUriDomains` (else `'self'`); always `object-src 'none'`. Both end
 * with `frame-ancestors`. Nothing beyond the declaration is granted: no `'unsafe-eval'`, no
 * `blob:`, no `worker-src` (views that build code at run time or start workers from blobs do not
 * run; see the README). Every entry passes {@link checkCspSource}; refused ones are dropped and
 * returned in `rejected`.
 *
 * @param csp - the resource's declared CSP, or undefined for the spec default. Values of the
 *   wrong type inside it are reported, not thrown.
 * @param options - the host origin and who may embed the proxy.
 * @returns the header, the domains applied and the rejected entries.
 * @throws {SandboxConfigurationError} when `hostOrigin` or a `frameAncestors` entry is not an
 *   http(s) origin (server configuration, never app input).
 */
export function buildContentSecurityPolicy(
  csp: McpUiResourceCsp | undefined,
  options: ContentSecurityPolicyOptions,
): ContentSecurityPolicy {
  const hostOrigin = normalizeHostOrigin(options.hostOrigin);
  const frameAncestors = `frame-ancestors ${checkFrameAncestors(options.frameAncestors ?? [hostOrigin])}`;
  const rejected: Rejection[] = [];
  if (csp === undefined) {
    return {
      header: [...specDefaultCspDirectives, frameAncestors].join("; "),
      applied: undefined,
      rejected,
    };
  }
  if (csp === null || typeof csp !== "object" || Array.isArray(csp)) {
    rejected.push(
      rejection("csp", csp, "wrong_type", "Must be an object; the spec default applies."),
    );
    return {
      header: [...specDefaultCspDirectives, frameAncestors].join("; "),
      applied: undefined,
      rejected,
    };
  }
  for (const key of Object.keys(csp)) {
    if (!(cspDomainFields as readonly string[]).includes(key)) {
      rejected.push(
        rejection(`csp.${key}`, key, "unknown_field", "Not an MCP Apps CSP field; ignored."),
      );
    }
  }
  const applied = {
    connectDomains: validateField("connectDomains", csp.connectDomains, hostOrigin, rejected),
    resourceDomains: validateField("resourceDomains", csp.resourceDomains, hostOrigin, rejected),
    frameDomains: validateField("frameDomains", csp.frameDomains, hostOrigin, rejected),
    baseUriDomains: validateField("baseUriDomains", csp.baseUriDomains, hostOrigin, rejected),
  };
  const resources = applied.resourceDomains;
  const directives = [
    "default-src 'none'",
    `script-src ${sources("'self' 'unsafe-inline'", resources)}`,
    `style-src ${sources("'self' 'unsafe-inline'", resources)}`,
    `img-src ${sources("'self' data:", resources)}`,
    `font-src ${sources("'self' data:", resources)}`,
    `media-src ${sources("'self' data:", resources)}`,
    `connect-src ${applied.connectDomains.length > 0 ? applied.connectDomains.join(" ") : "'none'"}`,
    "object-src 'none'",
    `frame-src ${applied.frameDomains.length > 0 ? applied.frameDomains.join(" ") : "'none'"}`,
    `base-uri ${applied.baseUriDomains.length > 0 ? applied.baseUriDomains.join(" ") : "'self'"}`,
    frameAncestors,
  ];
  return { header: directives.join("; "), applied, rejected };
}
