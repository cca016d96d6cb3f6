// The proxy URL carries each card's CSP and permissions, so the sandbox listener can answer
// `GET /proxy` with the right header before any HTML of the view exists. The URL is written by the
// host page but may be tampered with, so decoding validates and never throws.
import { rejection, type Rejection } from "../rejection";
import {
  cspDomainFields,
  permissionFeatures,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from "../resource-metadata";
import { decodeBase64UrlJson, encodeBase64UrlJson } from "./base64url-json";

/** Path of the proxy page on a sandbox origin. */
export const proxyPagePath = "/proxy";

/** Path of the proxy page's script on a sandbox origin. */
export const proxyScriptPath = "/proxy.js";

/**
 * Longest accepted value of each parameter. Node refuses request heads over 16 KiB, so the whole
 * URL must stay well under that; an over-long value is refused and the restrictive default applies.
 */
export const maximumProxyParameterLength = 6144;

/** The per-card data the proxy URL carries. */
export interface ProxyParams {
  /** The host page's origin: the only parent the proxy serves (`host=`). */
  host?: string | undefined;
  /** The label of the card's source: its view origin is the template filled with it (`view=`). */
  view?: string | undefined;
  csp?: McpUiResourceCsp | undefined;
  permissions?: McpUiResourcePermissions | undefined;
}

/** What {@link decodeProxyParams} returns: the valid parts, and what was dropped. */
export interface DecodedProxyParams {
  /** The `host=` value, unchecked beyond appearing once (the request handler checks it). */
  host: string | undefined;
  /** The `view=` value, unchecked beyond appearing once. */
  view: string | undefined;

  /** Undefined when absent or unreadable: the spec's default CSP applies. */
  csp: McpUiResourceCsp | undefined;
  /** Undefined when absent or unreadable: no permissions. */
  permissions: McpUiResourcePermissions | undefined;
  rejected: Rejection[];
}

/**
 * Encodes a card's proxy query: `host=<origin>`, `view=<label>`, `csp=<base64url JSON>` and
 * `permissions=<base64url JSON>`; a part that is undefined is left out. Values are encoded as
 * given: validation happens on the server, which logs what it drops.
 *
 * @returns the query parameters.
 * @throws {TypeError} when a value has no JSON form.
 */
export function encodeProxyParams(params: ProxyParams): URLSearchParams {
  const query = new URLSearchParams();
  if (params.host !== undefined) query.set("host", params.host);
  if (params.view !== undefined) query.set("view", params.view);
  if (params.csp !== undefined) query.set("csp", encodeBase64UrlJson(params.csp));
  if (params.permissions !== undefined) {
    query.set("permissions", encodeBase64UrlJson(params.permissions));
  }
  return query;
}

/**
 * Builds the full proxy URL for one card.
 *
 * @param sandboxOrigin - the sandbox proxy's origin, e.g. `http://proxy.localhost:41234`.
 * @returns `<sandboxOrigin>/proxy?host=...&view=...&csp=...&permissions=...`.
 * @throws {TypeError} when the origin is not a URL or a value has no JSON form.
 */
export function buildProxyUrl(sandboxOrigin: string, params: ProxyParams): string {
  const url = new URL(proxyPagePath, sandboxOrigin);
  url.search = encodeProxyParams(params).toString();
  return url.toString();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reads one plain parameter: its text when it appears exactly once, else undefined. */
function readText(
  searchParams: URLSearchParams,
  name: string,
  rejected: Rejection[],
): string | undefined {
  const values = searchParams.getAll(name);
  if (values.length === 0) return undefined;
  if (values.length > 1 || (values[0] ?? "").length > maximumProxyParameterLength) {
    rejected.push(
      rejection(
        name,
        values[0] ?? "",
        "malformed_parameter",
        "Given more than once or too long; not used.",
      ),
    );
    return undefined;
  }
  return values[0];
}

/** Reads one parameter: absent, the decoded JSON, or a rejection. */
function readParameter(
  searchParams: URLSearchParams,
  name: string,
  rejected: Rejection[],
): { present: false } | { present: true; value: unknown } {
  const values = searchParams.getAll(name);
  if (values.length === 0) return { present: false };
  const [text = ""] = values;
  if (values.length > 1) {
    rejected.push(
      rejection(name, text, "malformed_parameter", "Given more than once; none is used."),
    );
    return { present: false };
  }
  if (text.length > maximumProxyParameterLength) {
    rejected.push(
      rejection(
        name,
        text,
        "too_long",
        `Longer than ${maximumProxyParameterLength} characters; not used.`,
      ),
    );
    return { present: false };
  }
  try {
    return { present: true, value: decodeBase64UrlJson(text) };
  } catch {
    rejected.push(rejection(name, text, "malformed_parameter", "Not base64url JSON; not used."));
    return { present: false };
  }
}

function decodeCsp(value: unknown, rejected: Rejection[]): McpUiResourceCsp | undefined {
  if (!isPlainObject(value)) {
    rejected.push(
      rejection("csp", value, "wrong_type", "Must be an object; the spec default applies."),
    );
    return undefined;
  }
  const csp: McpUiResourceCsp = {};
  for (const [key, entries] of Object.entries(value)) {
    const field = cspDomainFields.find((name) => name === key);
    if (field === undefined) {
      rejected.push(
        rejection(`csp.${key}`, key, "unknown_field", "Not an MCP Apps CSP field; ignored."),
      );
      continue;
    }
    if (!Array.isArray(entries)) {
      rejected.push(rejection(`csp.${field}`, entries, "wrong_type", "Must be a list of origins."));
      continue;
    }
    const strings: string[] = [];
    for (const entry of entries as unknown[]) {
      if (typeof entry === "string") strings.push(entry);
      else
        rejected.push(
          rejection(`csp.${field}`, entry, "wrong_type", "Each entry must be a string."),
        );
    }
    csp[field] = strings;
  }
  return csp;
}

function decodePermissions(
  value: unknown,
  rejected: Rejection[],
): McpUiResourcePermissions | undefined {
  if (!isPlainObject(value)) {
    rejected.push(
      rejection("permissions", value, "wrong_type", "Must be an object; none granted."),
    );
    return undefined;
  }
  const permissions: McpUiResourcePermissions = {};
  for (const [key, request] of Object.entries(value)) {
    const name = Object.keys(permissionFeatures).find((known) => known === key) as
      keyof McpUiResourcePermissions | undefined;
    if (name === undefined) {
      rejected.push(
        rejection(
          `permissions.${key}`,
          key,
          "unknown_field",
          "Not an MCP Apps permission; ignored.",
        ),
      );
    } else if (!isPlainObject(request)) {
      rejected.push(
        rejection(
          `permissions.${name}`,
          request,
          "wrong_type",
          "Must be an object ({}); not granted.",
        ),
      );
    } else {
      permissions[name] = {};
    }
  }
  return permissions;
}

/**
 * Reads and validates the proxy URL's `host`, `view`, `csp` and `permissions`. Only the shape is
 * checked here (each parameter once, known fields, lists of strings, objects); the host origin is
 * checked by the request handler, and the CSP's origins by `buildContentSecurityPolicy`.
 *
 * @param searchParams - the query of the `GET /proxy` request.
 * @returns the usable parts (undefined where absent or unreadable, meaning the restrictive
 *   defaults) and the rejected values; never throws.
 */
export function decodeProxyParams(searchParams: URLSearchParams): DecodedProxyParams {
  const rejected: Rejection[] = [];
  const host = readText(searchParams, "host", rejected);
  const view = readText(searchParams, "view", rejected);
  const cspParameter = readParameter(searchParams, "csp", rejected);
  const permissionsParameter = readParameter(searchParams, "permissions", rejected);
  const csp = cspParameter.present ? decodeCsp(cspParameter.value, rejected) : undefined;
  return {
    host,
    view,
    csp,
    permissions: permissionsParameter.present
      ? decodePermissions(permissionsParameter.value, rejected)
      : undefined,
    rejected,
  };
}
