// Each distinct view page travels over the socket once per tab: the tab keeps the pages it was
// sent, by source and the page's hash (`page.viewHash`), and names the hashes of the card's
// source in `card:attach`; the server then leaves out a page the tab holds. Only the HTML is
// kept: the CSP, permissions and proxy URL come with every attach, so a cached page is sandboxed
// exactly as a fresh one. A page is only ever looked up under the source that sent it.
import { limits, type AttachReply, type PagePermissionName } from "@mcp-chat-host/protocol";

/** Most pages a tab keeps, over all sources; the least recently used go first. */
const MAX_KEPT_VIEWS = 32;

/** The pages a tab was sent, by source and hash. */
export class ViewHtmlCache {
  /** `source \0 hash` → HTML, least recently used first. */
  readonly #pages = new Map<string, string>();
  /** Per source, the attach under way while the tab held none of its pages. */
  readonly #firstAttach = new Map<string, Promise<unknown>>();

  constructor(private readonly capacity: number = MAX_KEPT_VIEWS) {}

  /** The hashes of a source's pages, most recently used first (at most what an attach may name). */
  hashesOf(source: string): string[] {
    const prefix = `${source}\u0000`;
    const hashes: string[] = [];
    for (const key of [...this.#pages.keys()].reverse()) {
      if (key.startsWith(prefix)) hashes.push(key.slice(prefix.length));
      if (hashes.length === limits.maxKnownViews) break;
    }
    return hashes;
  }

  /** A source's page by hash, if kept. */
  get(source: string, hash: string): string | undefined {
    const key = `${source}\u0000${hash}`;
    const html = this.#pages.get(key);
    if (html !== undefined) {
      this.#pages.delete(key);
      this.#pages.set(key, html);
    }
    return html;
  }

  /** Keeps a page a source sent. */
  keep(source: string, hash: string, html: string): void {
    const key = `${source}\u0000${hash}`;
    this.#pages.delete(key);
    this.#pages.set(key, html);
    while (this.#pages.size > this.capacity) {
      const oldest = this.#pages.keys().next().value;
      if (oldest === undefined) break;
      this.#pages.delete(oldest);
    }
  }

  /**
   * The attach under way that will bring a source's first page, if any: the source's other cards
   * wait for it, so they can name the page it brings instead of each fetching the page.
   */
  firstAttachOf(source: string): Promise<unknown> | undefined {
    return this.#firstAttach.get(source);
  }

  /** Records the attach that will bring a source's first page, until it settles. */
  startFirstAttach(source: string, attach: Promise<unknown>): void {
    this.#firstAttach.set(source, attach);
    const done = () => {
      if (this.#firstAttach.get(source) === attach) this.#firstAttach.delete(source);
    };
    attach.then(done, done);
  }

  /** How many pages are kept. */
  get size(): number {
    return this.#pages.size;
  }
}

/** The tab's pages. */
const tabViews = new ViewHtmlCache();

/** An attach reply whose page carries its HTML. */
export type AttachReplyWithHtml = AttachReply & { page: AttachReply["page"] & { html: string } };

/** `card:attach`'s payload without the held pages. */
export interface AttachPayload {
  instanceId: string;
  permissions?: PagePermissionName[];
}

/**
 * Attaches a card naming the pages the tab holds for its source, and fills the reply's page from
 * the tab's copy when the server left it out. When the copy is gone (another card pushed it
 * out meanwhile), attaches once more naming none. While one card of a source fetches the
 * source's first page, its other cards wait for that page.
 *
 * @param send - sends `card:attach` and resolves with its reply (rejects as it does).
 * @param payload - the card and its granted permissions.
 * @param source - the card's source.
 * @param cache - the tab's pages.
 * @returns the reply, with the page's HTML.
 * @throws whatever `send` throws, or an `Error` when the server sent no page.
 */
export async function attachWithHeldViews(
  send: (payload: AttachPayload & { views?: string[] }) => Promise<AttachReply>,
  payload: AttachPayload,
  source: string,
  cache: ViewHtmlCache = tabViews,
): Promise<AttachReplyWithHtml> {
  // While another card fetches the source's first page, wait for it (it settles: the request
  // has its acknowledgement timeout) and name the page it brought.
  const first = cache.firstAttachOf(source);
  if (first !== undefined) await first.catch(() => undefined);
  const held = cache.hashesOf(source);
  const sending = send(held.length === 0 ? payload : { ...payload, views: held });
  if (held.length === 0) cache.startFirstAttach(source, sending);
  const reply = await sending;
  const filled = fillPage(reply, cache);
  if (filled !== null) return filled;
  const again = fillPage(await send(payload), cache);
  if (again === null) throw new Error("The app's page did not arrive. Open the card again.");
  return again;
}

function fillPage(reply: AttachReply, cache: ViewHtmlCache): AttachReplyWithHtml | null {
  const { html, viewHash } = reply.page;
  if (html !== undefined) {
    if (viewHash !== undefined) cache.keep(reply.source, viewHash, html);
    return { ...reply, page: { ...reply.page, html } };
  }
  const kept = viewHash === undefined ? undefined : cache.get(reply.source, viewHash);
  return kept === undefined ? null : { ...reply, page: { ...reply.page, html: kept } };
}
