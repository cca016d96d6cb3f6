import { createHash } from "node:crypto";
import type { Source, SourceTool } from "../sources/source";
import { toolResourceUri } from "../sources/tool-metadata";
import { readViewResource, type ViewResource } from "../sources/view-resource";
import { sharedViewTexts, type ViewText, type ViewTexts } from "./view-cache-texts";

/** How long a page stays fresh when its server gives no `ttlMs`: five minutes. */
export const DEFAULT_VIEW_TTL_MS = 5 * 60_000;

/** Most pages one session keeps; the least recently read go first. */
const MAX_CACHED_VIEWS = 64;

/** A view's page as the cache keeps it: the read, and a hash of its HTML. */
export interface CachedView extends ViewResource {
  /** sha256 of the HTML, base64url: the browser keeps the page under it (`page.viewHash`). */
  hash: string;
}

/** Options of {@link ViewCache}. */
export interface ViewCacheOptions {
  /** The clock, in ms. Default `Date.now`. */
  now?: () => number;
  /** Freshness of a page whose server gives no `ttlMs`. Default {@link DEFAULT_VIEW_TTL_MS}. */
  defaultTtlMs?: number;
  /** Where equal page texts are held once. Default: the process's {@link sharedViewTexts}. */
  texts?: ViewTexts;
}

interface Entry {
  page: Promise<CachedView>;
  /** When the read finished plus its lifetime; Infinity while the read is in flight. */
  expiresAt: number;
  /** Keeps the page's held text while the entry lives. */
  text?: ViewText;
}

/** The hash a page travels under: sha256 of its HTML, base64url. */
export function viewHashOf(html: string): string {
  return createHash("sha256").update(html).digest("base64url");
}

/**
 * The view pages one session has read, by source key and URI, so the attaches of many cards read
 * each page once. A session belongs to one person and its source keys name its own sources, so
 * no page is served to another source or another person (a `cacheScope: "private"` page stays
 * private). A page is reused for its server's `ttlMs` (0: only by attaches that wait on the same
 * read), else for {@link DEFAULT_VIEW_TTL_MS}; a new card of the tool reads it again. A failed
 * read is not kept: the next attach reads the page again. The HTML kept is the copy held in
 * `texts` when another session read the very same text, so equal pages are in memory once.
 */
export class ViewCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #defaultTtlMs: number;
  readonly #texts: ViewTexts;

  constructor(options: ViewCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#defaultTtlMs = options.defaultTtlMs ?? DEFAULT_VIEW_TTL_MS;
    this.#texts = options.texts ?? sharedViewTexts;
  }

  /** The page at `uri` of a source: the cached one while fresh, else read now. */
  page(source: Source, uri: string): Promise<CachedView> {
    const entry = this.#entries.get(keyOf(source, uri));
    if (entry !== undefined && this.#now() < entry.expiresAt) return entry.page;
    return this.#read(source, uri);
  }

  /**
   * Reads a tool's view page again ahead of its new card's attach (the browser attaches as soon
   * as it hears of the card), so a page the server changed shows in the next card. A failure is
   * reported when the page attaches, not here.
   */
  async warm(source: () => Promise<Source>, tool: SourceTool): Promise<void> {
    const uri = toolResourceUri(tool);
    if (uri === undefined) return;
    try {
      await this.#read(await source(), uri);
    } catch {
      // Reported when the page attaches.
    }
  }

  #read(source: Source, uri: string): Promise<CachedView> {
    const key = keyOf(source, uri);
    const read = readViewResource(source, uri).then((resource) => {
      const hash = viewHashOf(resource.html);
      const text = this.#texts.intern(hash, resource.html);
      return { view: { ...resource, html: text.html, hash }, text };
    });
    const page = read.then(({ view }) => view);
    const entry: Entry = { page, expiresAt: Infinity };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > MAX_CACHED_VIEWS) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    read.then(
      ({ view, text }) => {
        entry.text = text;
        entry.expiresAt = this.#now() + (view.cache?.ttlMs ?? this.#defaultTtlMs);
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return page;
  }
}

function keyOf(source: Source, uri: string): string {
  return `${source.key}\u0000${uri}`;
}
