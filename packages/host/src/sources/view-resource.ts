import type { Resource } from "@modelcontextprotocol/client";
import type {
  McpUiResourceCsp,
  McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { z } from "zod";
import { SourceError } from "./source-error";
import type { Source, SourceRequestOptions } from "./source";

/** The `_meta.ui` of a view resource: what the sandbox and the card need to show it. */
export interface ViewResourceMeta {
  /** Origins the page may reach; the sandbox builds its CSP header from these. */
  csp?: McpUiResourceCsp;
  /** Browser features the page asks for (camera, microphone, geolocation, clipboard write). */
  permissions?: McpUiResourcePermissions;
  /** A dedicated sandbox origin the server asks for (host-dependent). */
  domain?: string;
  /** Whether the page wants the host to draw a border and background. */
  prefersBorder?: boolean;
}

/** A view's page, read from its `ui://` resource and checked. */
export interface ViewResource {
  /** The resource's URI, as asked for. */
  uri: string;
  /** The page's HTML document. */
  html: string;
  /** The resource's mime type (always `text/html;profile=mcp-app`). */
  mimeType: string;
  /** The `_meta.ui` of the content item, else of the `resources/list` entry; `{}` when neither has one. */
  meta: ViewResourceMeta;
  /** The read's cache hints (MCP 2026-07-28 `CacheableResult`), when the server gave them. */
  cache?: ViewCacheHints;
}

/** A `resources/read` result's cache hints (MCP 2026-07-28 `CacheableResult`). */
export interface ViewCacheHints {
  /** How long, in ms, the result may be reused. */
  ttlMs?: number;
  /** `private`: the result must not be shared across authorization contexts (people). */
  scope?: "public" | "private";
}

/** The cache hints of a read result, keeping only well-formed ones. */
function cacheHintsOf(result: Record<string, unknown>): ViewCacheHints | undefined {
  const hints: ViewCacheHints = {};
  const ttlMs = result["ttlMs"];
  if (typeof ttlMs === "number" && Number.isFinite(ttlMs) && ttlMs >= 0) hints.ttlMs = ttlMs;
  const scope = result["cacheScope"];
  if (scope === "public" || scope === "private") hints.scope = scope;
  return Object.keys(hints).length === 0 ? undefined : hints;
}

const domainList = z.array(z.string());
const permission = z.object({});

const viewMetaSchema = z.object({
  csp: z
    .object({
      connectDomains: domainList.optional(),
      resourceDomains: domainList.optional(),
      frameDomains: domainList.optional(),
      baseUriDomains: domainList.optional(),
    })
    .optional(),
  permissions: z
    .object({
      camera: permission.optional(),
      microphone: permission.optional(),
      geolocation: permission.optional(),
      clipboardWrite: permission.optional(),
    })
    .optional(),
  domain: z.string().optional(),
  prefersBorder: z.boolean().optional(),
});

/** How many pages of `resources/list` to read while looking for a view's listing entry. */
const MAX_LISTING_PAGES = 20;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `ui` object under `_meta`, or under `meta` (a quirk of the Python SDK), if any. */
function uiMetaOf(item: Record<string, unknown>): unknown {
  for (const key of ["_meta", "meta"]) {
    const meta = item[key];
    if (isRecord(meta) && meta["ui"] !== undefined) return meta["ui"];
  }
  return undefined;
}

function isViewMimeType(mimeType: string): boolean {
  // Compare without whitespace or case in the type: "text/html; profile=mcp-app" is the same type.
  return mimeType.replace(/\s+/g, "").toLowerCase() === RESOURCE_MIME_TYPE;
}

function parseViewMeta(uri: string, value: unknown, where: string): ViewResourceMeta {
  const parsed = viewMetaSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue === undefined ? "" : ` at _meta.ui.${issue.path.join(".")}`;
    throw new SourceError(
      "invalid_view",
      `The ${where} of ${uri} has malformed _meta.ui${path}: ${issue?.message ?? "invalid value"}; the server must fix its view metadata.`,
    );
  }
  const meta: ViewResourceMeta = {};
  const { csp, permissions, domain, prefersBorder } = parsed.data;
  if (csp !== undefined) meta.csp = stripUndefined(csp);
  if (permissions !== undefined) meta.permissions = stripUndefined(permissions);
  if (domain !== undefined) meta.domain = domain;
  if (prefersBorder !== undefined) meta.prefersBorder = prefersBorder;
  return meta;
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

async function findListingEntry(
  source: Pick<Source, "listResources">,
  uri: string,
  options: SourceRequestOptions,
): Promise<Resource | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LISTING_PAGES; page += 1) {
    const result = await source.listResources(cursor, options);
    const entry = result.resources.find((resource) => resource.uri === uri);
    if (entry !== undefined) return entry;
    cursor = result.nextCursor;
    if (cursor === undefined) return undefined;
  }
  return undefined;
}

/**
 * Reads a view's `ui://` resource and checks it (MCP Apps spec, "Resource discovery"): exactly
 * one content item, mime type `text/html;profile=mcp-app`, HTML in `text` or base64 `blob`.
 * `_meta.ui` comes from the content item, else from the `resources/list` entry: from `listing`
 * when given, else looked up with `listResources`.
 *
 * @param source - the source the view's tool belongs to.
 * @param uri - the `ui://` URI from the tool's metadata.
 * @param listing - `resources/list` entries already at hand, to avoid listing again.
 * @param options - signal and timeout for the requests.
 * @returns the page and its metadata.
 * @throws {SourceError} `invalid_view` when the resource is not a usable view (the host shows
 *   "Couldn't load the app: <message>"), or the source's own errors when the read fails.
 */
export async function readViewResource(
  source: Pick<Source, "readResource" | "listResources">,
  uri: string,
  listing?: readonly Resource[],
  options: SourceRequestOptions = {},
): Promise<ViewResource> {
  if (!uri.startsWith("ui://")) {
    throw new SourceError(
      "invalid_view_uri",
      `"${uri}" is not a ui:// URI, so it cannot be a view.`,
    );
  }
  const result = await source.readResource(uri, options);
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const content = contents[0];
  if (contents.length !== 1 || content === undefined) {
    throw new SourceError(
      "invalid_view",
      `The server returned ${contents.length} content items for ${uri}; a view needs exactly one.`,
    );
  }
  const mimeType = content.mimeType;
  if (mimeType === undefined || !isViewMimeType(mimeType)) {
    throw new SourceError(
      "invalid_view",
      `${uri} has mime type ${mimeType === undefined ? "(none)" : `"${mimeType}"`}; a view must be ${RESOURCE_MIME_TYPE}.`,
    );
  }
  let html: string;
  if ("text" in content && typeof content.text === "string") {
    html = content.text;
  } else if ("blob" in content && typeof content.blob === "string") {
    html = Buffer.from(content.blob, "base64").toString("utf8");
  } else {
    throw new SourceError(
      "invalid_view",
      `${uri} has neither text nor a base64 blob; a view needs its HTML in one.`,
    );
  }

  const cache = cacheHintsOf(result as Record<string, unknown>);
  const read = cache === undefined ? { uri, html, mimeType } : { uri, html, mimeType, cache };
  const contentMeta = uiMetaOf(content as Record<string, unknown>);
  if (contentMeta !== undefined) {
    return { ...read, meta: parseViewMeta(uri, contentMeta, "content") };
  }
  // The spec lets servers leave UI-only resources out of resources/list, and a server may not
  // list resources at all: a missing entry, or a failed listing, means "no metadata", and the
  // sandbox falls back to the spec's restrictive default CSP.
  let entry = listing?.find((resource) => resource.uri === uri);
  if (entry === undefined && listing === undefined) {
    entry = await findListingEntry(source, uri, options).catch(() => undefined);
  }
  const listingMeta = entry === undefined ? undefined : uiMetaOf(entry as Record<string, unknown>);
  const meta =
    listingMeta === undefined ? {} : parseViewMeta(uri, listingMeta, "resources/list entry");
  return { ...read, meta };
}
