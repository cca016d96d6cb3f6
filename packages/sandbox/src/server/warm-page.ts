// The warm document: an empty page the chat page keeps in one hidden frame on the proxy's origin
// (holding one more on a view's origin), so the browser has a process for each site running
// before the first card opens. It runs nothing, loads nothing and never receives a view.
import { frameAncestorsValue } from "../csp/frame-ancestors";
import type { SandboxOrigins } from "../origins/sandbox-origins";
import { warmPagePath } from "../params/warm-page-params";

/** What {@link renderWarmPage} returns: the document and its CSP header. */
export interface WarmPage {
  body: string;
  csp: string;
}

/**
 * The warm document of one sandbox origin. On the proxy's origin, with a valid `view` label, it
 * holds one frame on that view origin's own warm document (`sandbox="allow-same-origin"`: no
 * scripts, but the view origin's own site, so the browser keeps that site's process). The CSP
 * runs and loads nothing (`default-src 'none'`), admits only that one frame, and may be framed
 * only by the chat page (and, on a view origin, the proxy).
 *
 * @param origins - the sandbox's origins.
 * @param kind - which origin was asked.
 * @param hostOrigins - the chat page's origins.
 * @param viewLabel - on the proxy's origin, the view origin to warm too (ignored when not a label).
 */
export function renderWarmPage(
  origins: SandboxOrigins,
  kind: "proxy" | "view",
  hostOrigins: readonly string[],
  viewLabel: string | undefined,
): WarmPage {
  const ancestors = frameAncestorsValue(
    kind === "proxy" ? hostOrigins : [origins.proxyOrigin, ...hostOrigins],
  );
  let nested: string | undefined;
  if (kind === "proxy" && viewLabel !== undefined) {
    try {
      nested = `${origins.viewOrigin(viewLabel)}${warmPagePath}`;
    } catch {
      nested = undefined;
    }
  }
  const frameSrc = nested === undefined ? "" : `; frame-src ${nested}`;
  const frame =
    nested === undefined
      ? ""
      : `<iframe src="${nested}" sandbox="allow-same-origin" tabindex="-1" aria-hidden="true" width="0" height="0"></iframe>`;
  return {
    body: `<!doctype html><html><head><meta charset="utf-8"><title></title></head><body>${frame}</body></html>\n`,
    csp: `default-src 'none'${frameSrc}; frame-ancestors ${ancestors}`,
  };
}
