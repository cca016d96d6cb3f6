// The Content-Security-Policy of a view's own document, sent as the HTTP header of the view URL
// on the view's origin (never as a <meta>, which the view's HTML could precede or drop). It
// relaxes what may run inside the sandbox (eval, blob: and data: scripts, blob: workers, blob: and
// data: media) the way the reference host does, and keeps what the view may reach exactly as
// declared: connections, resources, frames and <base> only to the declared origins, no form
// submissions, and embedding only by the sandbox proxy.
import { httpOrigin, isHttpOrigin } from "@mcp-chat-host/protocol";
import { normalizeHostOrigin } from "../host-origin";
import { rejection, type Rejection } from "../rejection";
import { cspDomainFields, type CspDomainField, type McpUiResourceCsp } from "../resource-metadata";
import { SandboxConfigurationError } from "../sandbox-error";
import { checkCspSource } from "./csp-source";
import { frameAncestorsValue } from "./frame-ancestors";

/** Most entries kept per list; the rest are reported as `too_many`. */
export const maximumCspSourcesPerField = 32;

/**
 * The MCP Apps restrictive default (spec "Content Security Policy Enforcement"), for reference:
 * the network half of it is what a view gets when its resource declares no `csp`. The execution
 * half is relaxed (see {@link viewExecutionSources}).
 */
export const specDefaultCspDirectives = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
] as const;

/**
 * What may run inside a view, whatever it declares (the reference host's set): inline and
 * `eval`ed script, scripts from `blob:` and `data:` URLs, workers from `blob:`, and styles,
 * images, fonts and media from `blob:` and `data:`. None of these reaches another origin; the
 * declared `resourceDomains` are added to each list.
 */
export const viewExecutionSources = {
  "script-src": ["'self'", "'unsafe-inline'", "'unsafe-eval'", "blob:", "data:"],
  "style-src": ["'self'", "'unsafe-inline'", "blob:", "data:"],
  "img-src": ["'self'", "data:", "blob:"],
  "font-src": ["'self'", "data:", "blob:"],
  "media-src": ["'self'", "data:", "blob:"],
  "worker-src": ["'self'", "blob:"],
} as const;

/** Options of {@link buildContentSecurityPolicy}. */
export interface ContentSecurityPolicyOptions {
  /** The chat page's origin; no entry may match it. */
  hostOrigin: string;
  /**
   * Origins allowed to embed the view: the sandbox proxy's. An empty list means `'none'`; IPv6
   * origins, which no browser reads in CSP, are left out (`frame-ancestors.ts`).
   */
  frameAncestors: readonly string[];
  /**
   * The sandbox's own origins (`http://*.localhost:41234`, `https://*.sandbox.example.com`); no
   * entry may match them either.
   */
  reservedOrigins?: readonly string[];
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
  return frameAncestorsValue(
    values.map((value) => {
      const origin = httpOrigin(value);
      if (origin === undefined || !isHttpOrigin(value)) {
        throw new SandboxConfigurationError(
          "invalid_frame_ancestor",
          `The frame ancestor "${value}" is not an http(s) origin; list origins such as "http://127.0.0.1:3000".`,
        );
      }
      return origin;
    }),
  );
}

function validateField(
  field: CspDomainField,
  values: unknown,
  guards: { hostOrigin: string; reservedOrigins: readonly string[] },
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
    const check = checkCspSource(value, guards.hostOrigin, guards.reservedOrigins);
    if (!check.ok) {
      rejected.push(rejection(fieldName, value, check.code, check.reason));
    } else if (!accepted.includes(check.source)) {
      accepted.push(check.source);
    }
  }
  return accepted;
}

function sources(base: readonly string[], extra: readonly string[]): string {
  return [...base, ...extra].join(" ");
}

function listOrNone(values: readonly string[]): string {
  return values.length > 0 ? values.join(" ") : "'none'";
}

const nothingDeclared: Required<McpUiResourceCsp> = {
  connectDomains: [],
  resourceDomains: [],
  frameDomains: [],
  baseUriDomains: [],
};

/** The header from what is left of the declaration after validation. */
function render(applied: Required<McpUiResourceCsp>, frameAncestors: string): string {
  const resources = applied.resourceDomains;
  const frames = listOrNone(applied.frameDomains);
  return [
    "default-src 'none'",
    ...Object.entries(viewExecutionSources).map(
      ([directive, base]) => `${directive} ${sources(base, resources)}`,
    ),
    `connect-src ${listOrNone(applied.connectDomains)}`,
    `frame-src ${frames}`,
    `child-src ${frames}`,
    "object-src 'none'",
    `base-uri ${applied.baseUriDomains.length > 0 ? applied.baseUriDomains.join(" ") : "'self'"}`,
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

/**
 * Builds the Content-Security-Policy of one view from the `_meta.ui.csp` its resource declared.
 *
 * Execution: always {@link viewExecutionSources}, plus the declared `resourceDomains` in each of
 * its lists. Reach, exactly as declared: `connect-src` from `connectDomains` (else `'none'`);
 * `frame-src` and `child-src` from `frameDomains` (else `'none'`); `base-uri` from
 * `baseUriDomains` (else `'self'`); always `default-src 'none'`, `object-src 'none'`,
 * `form-action 'none'`, and `frame-ancestors` from the options (the proxy). Without `csp`, every
 * list is empty: the spec's restrictive default for the network. Every entry passes
 * {@link checkCspSource} against the host's origin and the reserved sandbox origins; refused
 * ones are dropped and returned in `rejected`.
 *
 * @param csp - the resource's declared CSP, or undefined for the restrictive default. Values of
 *   the wrong type inside it are reported, not thrown.
 * @param options - the host origin, who may embed the view, and the sandbox's own origins.
 * @returns the header, the domains applied and the rejected entries.
 * @throws {SandboxConfigurationError} when `hostOrigin` or a `frameAncestors` entry is not an
 *   http(s) origin (server configuration, never app input).
 */
export function buildContentSecurityPolicy(
  csp: McpUiResourceCsp | undefined,
  options: ContentSecurityPolicyOptions,
): ContentSecurityPolicy {
  const hostOrigin = normalizeHostOrigin(options.hostOrigin);
  const frameAncestors = checkFrameAncestors(options.frameAncestors);
  const guards = { hostOrigin, reservedOrigins: options.reservedOrigins ?? [] };
  const rejected: Rejection[] = [];
  if (csp === undefined) {
    return { header: render(nothingDeclared, frameAncestors), applied: undefined, rejected };
  }
  if (csp === null || typeof csp !== "object" || Array.isArray(csp)) {
    rejected.push(
      rejection("csp", csp, "wrong_type", "Must be an object; the restrictive default applies."),
    );
    return { header: render(nothingDeclared, frameAncestors), applied: undefined, rejected };
  }
  for (const key of Object.keys(csp)) {
    if (!(cspDomainFields as readonly string[]).includes(key)) {
      rejected.push(
        rejection(`csp.${key}`, key, "unknown_field", "Not an MCP Apps CSP field; ignored."),
      );
    }
  }
  const applied = {
    connectDomains: validateField("connectDomains", csp.connectDomains, guards, rejected),
    resourceDomains: validateField("resourceDomains", csp.resourceDomains, guards, rejected),
    frameDomains: validateField("frameDomains", csp.frameDomains, guards, rejected),
    baseUriDomains: validateField("baseUriDomains", csp.baseUriDomains, guards, rejected),
  };
  return { header: render(applied, frameAncestors), applied, rejected };
}
