import type { AttachReply } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { attachWithHeldViews, ViewHtmlCache, type AttachPayload } from "./view-html-cache";

function reply(source: string, page: { html?: string; viewHash?: string }): AttachReply {
  return {
    instanceId: "card-1",
    title: "Notes",
    source,
    page: {
      ...page,
      sandboxOrigin: "http://notes.localhost:1",
      proxyUrl: "http://notes.localhost:1/proxy",
    },
    tool: { name: "open-notes", inputSchema: { type: "object" } },
    toolInput: {},
    toolResult: null,
    cancelled: null,
    appTools: [],
    restored: false,
    reportedAt: null,
  } as AttachReply;
}

/** A server that leaves out the page when the attach names its hash, recording every payload. */
function server(pages: Record<string, { html: string; hash: string }>) {
  const sent: (AttachPayload & { views?: string[] })[] = [];
  return {
    sent,
    send: async (payload: AttachPayload & { views?: string[] }, source = "notes") => {
      sent.push(payload);
      const page = pages[source];
      if (page === undefined) throw new Error("no such source");
      return reply(source, {
        viewHash: page.hash,
        ...(payload.views?.includes(page.hash) === true ? {} : { html: page.html }),
      });
    },
  };
}

describe("attachWithHeldViews", () => {
  it("sends a page once, then fills it from the tab's copy", async () => {
    const cache = new ViewHtmlCache();
    const notes = server({ notes: { html: "<p>notes</p>", hash: "h1" } });
    const first = await attachWithHeldViews(notes.send, { instanceId: "a" }, "notes", cache);
    const second = await attachWithHeldViews(notes.send, { instanceId: "b" }, "notes", cache);
    expect(first.page.html).toBe("<p>notes</p>");
    expect(second.page.html).toBe("<p>notes</p>");
    expect(notes.sent).toEqual([{ instanceId: "a" }, { instanceId: "b", views: ["h1"] }]);
  });

  it("takes a changed page the server sends under a new hash", async () => {
    const cache = new ViewHtmlCache();
    const pages = { notes: { html: "<p>one</p>", hash: "h1" } };
    const notes = server(pages);
    await attachWithHeldViews(notes.send, { instanceId: "a" }, "notes", cache);
    pages.notes = { html: "<p>two</p>", hash: "h2" };
    const changed = await attachWithHeldViews(notes.send, { instanceId: "a" }, "notes", cache);
    expect(changed.page.html).toBe("<p>two</p>");
    expect(cache.hashesOf("notes")).toEqual(["h2", "h1"]);
  });

  it("names only the card's source's pages, and never fills a page from another source", async () => {
    const cache = new ViewHtmlCache();
    cache.keep("tasks", "same", "<p>tasks</p>");
    const sent: (AttachPayload & { views?: string[] })[] = [];
    // A reply without HTML under a hash only another source holds: attach again naming none.
    const send = async (payload: AttachPayload & { views?: string[] }) => {
      sent.push(payload);
      return reply(
        "notes",
        sent.length === 1 ? { viewHash: "same" } : { viewHash: "same", html: "<p>notes</p>" },
      );
    };
    const filled = await attachWithHeldViews(send, { instanceId: "a" }, "notes", cache);
    expect(filled.page.html).toBe("<p>notes</p>");
    expect(sent).toEqual([{ instanceId: "a" }, { instanceId: "a" }]);
    expect(cache.get("tasks", "same")).toBe("<p>tasks</p>");
  });

  it("attaches again naming none when the tab's copy was pushed out", async () => {
    const cache = new ViewHtmlCache(1);
    const notes = server({ notes: { html: "<p>notes</p>", hash: "h1" } });
    await attachWithHeldViews(notes.send, { instanceId: "a" }, "notes", cache);
    const hashes = cache.hashesOf("notes");
    const send = async (payload: AttachPayload & { views?: string[] }) => {
      // Another card's page pushes this one out while the attach is on its way.
      if (payload.views !== undefined) cache.keep("tasks", "t1", "<p>tasks</p>");
      return notes.send(payload);
    };
    const filled = await attachWithHeldViews(send, { instanceId: "b" }, "notes", cache);
    expect(hashes).toEqual(["h1"]);
    expect(filled.page.html).toBe("<p>notes</p>");
    expect(notes.sent.slice(1)).toEqual([{ instanceId: "b", views: ["h1"] }, { instanceId: "b" }]);
  });

  it("fails with a sentence when the server never sends the page", async () => {
    const send = async () => reply("notes", { viewHash: "gone" });
    await expect(
      attachWithHeldViews(send, { instanceId: "a" }, "notes", new ViewHtmlCache()),
    ).rejects.toThrow("The app's page did not arrive. Open the card again.");
  });
});

describe("attachWithHeldViews, many cards at once", () => {
  it("lets the other cards of a source wait for its first page, then name it", async () => {
    const cache = new ViewHtmlCache();
    const notes = server({ notes: { html: "<p>notes</p>", hash: "h1" } });
    const replies = await Promise.all(
      ["a", "b", "c", "d"].map((instanceId) =>
        attachWithHeldViews(notes.send, { instanceId }, "notes", cache),
      ),
    );
    expect(replies.map((reply) => reply.page.html)).toEqual(Array(4).fill("<p>notes</p>"));
    expect(notes.sent).toEqual([
      { instanceId: "a" },
      { instanceId: "b", views: ["h1"] },
      { instanceId: "c", views: ["h1"] },
      { instanceId: "d", views: ["h1"] },
    ]);
  });

  it("lets the waiting cards go on when the first attach fails", async () => {
    const cache = new ViewHtmlCache();
    let calls = 0;
    const send = async (payload: AttachPayload & { views?: string[] }) => {
      calls += 1;
      if (payload.instanceId === "a") throw new Error("The server is busy.");
      return reply("notes", { viewHash: "h1", html: "<p>notes</p>" });
    };
    const [first, second] = await Promise.allSettled([
      attachWithHeldViews(send, { instanceId: "a" }, "notes", cache),
      attachWithHeldViews(send, { instanceId: "b" }, "notes", cache),
    ]);
    expect(first.status).toBe("rejected");
    expect(second.status === "fulfilled" ? second.value.page.html : null).toBe("<p>notes</p>");
    expect(calls).toBe(2);
  });
});
