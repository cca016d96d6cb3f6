import { createHash } from "node:crypto";
import { isViewLabel } from "@mcp-chat-host/sandbox";
import type { OriginPolicy } from "./origin-check";

/** Where a card's view is shown: the sandbox proxy's origin and the card's proxy page URL. */
export interface SandboxPlacement {
  origin: string;
  proxyUrl: string;
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A source key as one DNS label, never the proxy's. Keys that already are a view label are kept;
 * others are reduced to letters, digits and dashes plus a short hash, so two keys never share an
 * origin.
 *
 * @param sourceKey - the source's unique name.
 * @returns a DNS label (at most 63 characters).
 */
export function sourceLabel(sourceKey: string): string {
  if (DNS_LABEL.test(sourceKey) && isViewLabel(sourceKey)) return sourceKey;
  const hash = createHash("sha256").update(sourceKey, "utf8").digest("hex").slice(0, 8);
  const slug = sourceKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);
  return slug.length > 0 ? `${slug}-${hash}` : `source-${hash}`;
}

/**
 * The origin of the page a card is shown in: the allowed origin for the page's `Host` (http
 * first, as the host serves it; https behind a proxy), else the host's canonical origin.
 */
export function pageOrigin(policy: OriginPolicy, pageHost: string | undefined): string {
  if (pageHost !== undefined && policy.hostAllowed(pageHost)) {
    const host = pageHost.toLowerCase();
    for (const candidate of [`http://${host}`, `https://${host}`]) {
      if (policy.origins.has(candidate)) return candidate;
    }
  }
  return policy.canonicalOrigin;
}
