// Where the sandbox lives: one proxy origin for every card, and one view origin per source, all
// filled in from a single template whose first label is `{source}`. Locally that is
// `http://{source}.localhost:<port>`: each `*.localhost` name is a site of its own in browsers
// (they treat `localhost` as a top-level domain), so no view shares a site with the host page
// (`127.0.0.1`, `localhost`) or with another source's view, and none can set a cookie the host
// or another view reads.
import { httpOrigin } from "@mcp-chat-host/protocol";
import { SandboxConfigurationError } from "../sandbox-error";

/** The label of the proxy's origin; no source's view ever gets it (see {@link isViewLabel}). */
export const proxyLabel = "proxy";

/** The placeholder a template must start its host with. */
export const sourcePlaceholder = "{source}";

const dnsLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether a label may name a source's view origin: a lower-case DNS label other than
 * {@link proxyLabel}.
 *
 * @returns true for a usable view label; never throws.
 */
export function isViewLabel(label: string): boolean {
  return dnsLabel.test(label) && label !== proxyLabel;
}

/** The origins one template gives: the proxy's, and a view origin per source label. */
export interface SandboxOrigins {
  /** The template, e.g. `http://{source}.localhost:41234`. */
  readonly template: string;
  /** The proxy page's origin (the template with {@link proxyLabel}). */
  readonly proxyOrigin: string;
  /** The part after the first label: `.localhost:41234`, `.sandbox.example.com`. */
  readonly suffix: string;
  /** The scheme with its colon: `http:` or `https:`. */
  readonly scheme: string;
  /**
   * The view origin of a source.
   * @param label - the source's label (see {@link isViewLabel}).
   * @throws {SandboxConfigurationError} `invalid_source_label` when the label is not a view label.
   */
  viewOrigin(label: string): string;
  /**
   * Tells which sandbox origin an origin is.
   * @returns `{ kind: "proxy" }`, `{ kind: "view", label }`, or undefined for anything else.
   */
  classify(origin: string): { kind: "proxy" } | { kind: "view"; label: string } | undefined;
}

/**
 * Reads a sandbox origin template.
 *
 * @param template - an http(s) origin whose host starts with `{source}.`, such as
 *   `http://{source}.localhost:41234` or `https://{source}.sandbox.example.com`.
 * @returns the proxy origin and the way to name view origins.
 * @throws {SandboxConfigurationError} `invalid_origin_template` for anything else.
 */
export function sandboxOrigins(template: string): SandboxOrigins {
  const prefixMatch = /^(https?:)\/\/\{source\}(\.[^/?#]+)$/i.exec(template);
  const filled = httpOrigin(template.replace(sourcePlaceholder, proxyLabel));
  if (
    prefixMatch === null ||
    filled === undefined ||
    filled !== template.replace(sourcePlaceholder, proxyLabel).toLowerCase()
  ) {
    throw new SandboxConfigurationError(
      "invalid_origin_template",
      `The sandbox origin template "${template}" must be an origin whose first label is {source}, like "https://{source}.sandbox.example.com".`,
    );
  }
  const scheme = (prefixMatch[1] ?? "").toLowerCase();
  const suffix = (prefixMatch[2] ?? "").toLowerCase();
  const proxyOrigin = `${scheme}//${proxyLabel}${suffix}`;
  return {
    template,
    proxyOrigin,
    suffix,
    scheme,
    viewOrigin(label) {
      if (!isViewLabel(label)) {
        throw new SandboxConfigurationError(
          "invalid_source_label",
          `"${label}" cannot name a view origin; use a lower-case DNS label other than "${proxyLabel}".`,
        );
      }
      return `${scheme}//${label}${suffix}`;
    },
    classify(origin) {
      const normal = httpOrigin(origin);
      if (normal === undefined || normal !== origin.toLowerCase()) return undefined;
      if (normal === proxyOrigin) return { kind: "proxy" };
      const prefix = `${scheme}//`;
      if (!normal.startsWith(prefix) || !normal.endsWith(suffix)) return undefined;
      const label = normal.slice(prefix.length, normal.length - suffix.length);
      return isViewLabel(label) ? { kind: "view", label } : undefined;
    },
  };
}
