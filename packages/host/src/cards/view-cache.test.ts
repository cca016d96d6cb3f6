import { InMemoryTransport } from "@modelcontextprotocol/client";
import { registerAppResource } from "@modelcontextprotocol/ext-apps/server";
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { ClientSource } from "../sources/client-source";
import type { Source, SourceTool } from "../sources/source";
import { DEFAULT_VIEW_TTL_MS, ViewCache, viewHashOf } from "./view-cache";
import { ViewTexts } from "./view-cache-texts";

const MIME = "text/html;profile=mcp-app";
const URI = "ui://fixture/page";

const sources: Source[] = [];
afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
});

/** What a fixture server serves; the test changes it between reads. */
interface Served {
  html: string;
  /** The read result's cache hints, if any. */
  hints?: { ttlMs?: number; cacheScope?: "public" | "private" };
  reads: number;
}

/** A source on a real McpServer over the in-memory transport, serving `served.html` at {@link URI}. */
function serve(key: string, served: Served): Source {
  const source = new ClientSource({
    key,
    kind: "app",
    openTransport: async () => {
      const server = new McpServer({ name: key, version: "1.0.0" });
      registerAppResource(server, "page", URI, {}, async () => {
        served.reads += 1;
        return {
          contents: [{ uri: URI, mimeType: MIME, text: served.html }],
          ...(served.hints ?? {}),
        };
      });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      return { transport: clientTransport, shutdown: () => server.close() };
    },
  });
  sources.push(source);
  return source;
}

const TOOL: SourceTool = {
  name: "open",
  inputSchema: { type: "object" },
  meta: { ui: { resourceUri: URI } },
};

describe("ViewCache", () => {
  it("reads a page once for many attaches, and hashes its HTML", async () => {
    const served: Served = { html: "<p>one</p>", reads: 0 };
    const source = serve("fixture", served);
    const cache = new ViewCache();
    const pages = await Promise.all(Array.from({ length: 20 }, () => cache.page(source, URI)));
    const later = await cache.page(source, URI);
    expect(served.reads).toBe(1);
    expect(new Set(pages.map((page) => page.hash))).toEqual(new Set([viewHashOf("<p>one</p>")]));
    expect(later.html).toBe("<p>one</p>");
  });

  it("serves a page the server changed to the next new card of its tool", async () => {
    const served: Served = { html: "<p>one</p>", reads: 0 };
    const source = serve("fixture", served);
    const cache = new ViewCache();
    const first = await cache.page(source, URI);
    served.html = "<p>two</p>";
    await cache.warm(async () => source, TOOL);
    const second = await cache.page(source, URI);
    expect(second.html).toBe("<p>two</p>");
    expect(second.hash).not.toBe(first.hash);
    expect(served.reads).toBe(2);
  });

  it("keeps a page for the server's ttlMs, else for the default, by the clock", async () => {
    let now = 1_000;
    const hinted: Served = { html: "<p>a</p>", hints: { ttlMs: 100 }, reads: 0 };
    const plain: Served = { html: "<p>b</p>", reads: 0 };
    const hintedSource = serve("hinted", hinted);
    const plainSource = serve("plain", plain);
    const cache = new ViewCache({ now: () => now });
    expect((await cache.page(hintedSource, URI)).cache).toEqual({ ttlMs: 100 });
    await cache.page(plainSource, URI);
    now += 99;
    await cache.page(hintedSource, URI);
    expect(hinted.reads).toBe(1);
    now += 1;
    hinted.html = "<p>a2</p>";
    expect((await cache.page(hintedSource, URI)).html).toBe("<p>a2</p>");
    expect(hinted.reads).toBe(2);
    now += DEFAULT_VIEW_TTL_MS - 100 - 1;
    await cache.page(plainSource, URI);
    expect(plain.reads).toBe(1);
    now += 1;
    await cache.page(plainSource, URI);
    expect(plain.reads).toBe(2);
  });

  it("with ttlMs 0, shares only a read in flight", async () => {
    const served: Served = {
      html: "<p>x</p>",
      hints: { ttlMs: 0, cacheScope: "private" },
      reads: 0,
    };
    const source = serve("fixture", served);
    const cache = new ViewCache();
    const together = await Promise.all([cache.page(source, URI), cache.page(source, URI)]);
    expect(together[0]?.cache).toEqual({ ttlMs: 0, scope: "private" });
    expect(served.reads).toBe(1);
    await cache.page(source, URI);
    expect(served.reads).toBe(2);
  });

  it("never serves one source's page for another source's same URI", async () => {
    const left = serve("left", { html: "<p>left</p>", reads: 0 });
    const right = serve("right", { html: "<p>right</p>", reads: 0 });
    const cache = new ViewCache();
    expect((await cache.page(left, URI)).html).toBe("<p>left</p>");
    expect((await cache.page(right, URI)).html).toBe("<p>right</p>");
  });

  it("does not keep a failed read", async () => {
    const served: Served = { html: "<p>ok</p>", reads: 0 };
    const source = serve("fixture", served);
    const cache = new ViewCache();
    await expect(cache.page(source, "ui://fixture/missing")).rejects.toThrow();
    await expect(cache.page(source, "ui://fixture/missing")).rejects.toThrow();
    expect((await cache.page(source, URI)).html).toBe("<p>ok</p>");
  });

  it("holds an equal page of many sessions once, and gives each session its own source's text", async () => {
    const texts = new ViewTexts();
    const same = "<p>the same page</p>";
    const sessions = Array.from({ length: 3 }, () => new ViewCache({ texts }));
    const pages = await Promise.all(
      sessions.map((cache, index) =>
        cache.page(serve(`app-${index}`, { html: same, reads: 0 }), URI),
      ),
    );
    expect(pages.map((page) => page.html)).toEqual([same, same, same]);
    expect(texts.size).toBe(1);
    // Each session still read its own server: another person's page is never served.
    const other = new ViewCache({ texts });
    const own = await other.page(serve("app-other", { html: "<p>mine</p>", reads: 0 }), URI);
    expect(own.html).toBe("<p>mine</p>");
    expect(own.hash).toBe(viewHashOf("<p>mine</p>"));
    expect(texts.size).toBe(2);
  });
});

describe("ViewTexts", () => {
  it("gives back the held copy of an equal text, and never another text's", () => {
    const texts = new ViewTexts();
    const first = texts.intern(viewHashOf("<p>a</p>"), "<p>a</p>");
    expect(texts.intern(viewHashOf("<p>a</p>"), "<p>a</p>")).toBe(first);
    // A different text under the same key (a forged hash) is held on its own.
    const forged = texts.intern(viewHashOf("<p>a</p>"), "<p>b</p>");
    expect(forged).not.toBe(first);
    expect(forged.html).toBe("<p>b</p>");
    expect(first.html).toBe("<p>a</p>");
  });
});
