import { InMemoryTransport } from "@modelcontextprotocol/client";
import type { ListResourcesResult, ReadResourceResult } from "@modelcontextprotocol/client";
import { registerAppResource } from "@modelcontextprotocol/ext-apps/server";
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { ClientSource } from "./client-source";
import type { Source } from "./source";
import { SourceError } from "./source-error";
import { readViewResource } from "./view-resource";

const PAGE = "<!doctype html><title>view</title>";
const MIME = "text/html;profile=mcp-app";

const sources: Source[] = [];
afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
});

/** A source on a real McpServer over the in-memory transport, counting `resources/list` calls. */
function serve(build: (server: McpServer) => void): { source: Source; listings: () => number } {
  let listings = 0;
  const source = new ClientSource({
    key: "fixture",
    kind: "app",
    openTransport: async () => {
      const server = new McpServer({ name: "fixture", version: "1.0.0" });
      build(server);
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      const receive = serverTransport.onmessage;
      serverTransport.onmessage = (message, extra) => {
        if ("method" in message && message.method === "resources/list") listings += 1;
        receive?.(message, extra);
      };
      return { transport: clientTransport, shutdown: () => server.close() };
    },
  });
  sources.push(source);
  return { source, listings: () => listings };
}

/** A source that answers reads with a fixed result: fault injection for shapes a real server won't send. */
function stub(read: ReadResourceResult, listing?: () => Promise<ListResourcesResult>) {
  return {
    readResource: async () => read,
    listResources: listing ?? (async () => ({ resources: [] })),
  };
}

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    return error as SourceError;
  }
  throw new Error("expected a rejection");
}

describe("readViewResource", () => {
  it("reads a text page with _meta.ui from the content item, without listing", async () => {
    const { source, listings } = serve((server) =>
      registerAppResource(server, "page", "ui://fixture/page", {}, async () => ({
        contents: [
          {
            uri: "ui://fixture/page",
            mimeType: MIME,
            text: PAGE,
            _meta: {
              ui: {
                csp: { resourceDomains: ["https://cdn.example.com"] },
                domain: "a.example.com",
              },
            },
          },
        ],
      })),
    );
    const view = await readViewResource(source, "ui://fixture/page");
    expect(view).toEqual({
      uri: "ui://fixture/page",
      html: PAGE,
      mimeType: MIME,
      meta: { csp: { resourceDomains: ["https://cdn.example.com"] }, domain: "a.example.com" },
    });
    expect(listings()).toBe(0);
  });

  it("decodes a base64 blob as UTF-8", async () => {
    const html = "<p>café ✓</p>";
    const { source } = serve((server) =>
      registerAppResource(server, "page", "ui://fixture/blob", {}, async () => ({
        contents: [
          {
            uri: "ui://fixture/blob",
            mimeType: MIME,
            blob: Buffer.from(html, "utf8").toString("base64"),
          },
        ],
      })),
    );
    expect((await readViewResource(source, "ui://fixture/blob")).html).toBe(html);
  });

  it("refuses a page whose mime type is not text/html;profile=mcp-app", async () => {
    const { source } = serve((server) =>
      server.registerResource(
        "page",
        "ui://fixture/plain",
        { mimeType: "text/html" },
        async () => ({
          contents: [{ uri: "ui://fixture/plain", mimeType: "text/html", text: PAGE }],
        }),
      ),
    );
    const error = await failure(readViewResource(source, "ui://fixture/plain"));
    expect(error.code).toBe("invalid_view");
    expect(error.message).toBe(
      'ui://fixture/plain has mime type "text/html"; a view must be text/html;profile=mcp-app.',
    );
  });

  it("accepts the mime type written with a space after the semicolon", async () => {
    const view = await readViewResource(
      stub({ contents: [{ uri: "ui://a", mimeType: "text/html; profile=mcp-app", text: PAGE }] }),
      "ui://a",
    );
    expect(view.html).toBe(PAGE);
  });

  it("refuses anything but exactly one content item", async () => {
    const { source } = serve((server) =>
      registerAppResource(server, "page", "ui://fixture/two", {}, async () => ({
        contents: [
          { uri: "ui://fixture/two", mimeType: MIME, text: PAGE },
          { uri: "ui://fixture/two", mimeType: MIME, text: PAGE },
        ],
      })),
    );
    const error = await failure(readViewResource(source, "ui://fixture/two"));
    expect(error.code).toBe("invalid_view");
    expect(error.message).toMatch(
      /returned 2 content items for ui:\/\/fixture\/two; a view needs exactly one/,
    );
    const none = await failure(readViewResource(stub({ contents: [] }), "ui://a"));
    expect(none.message).toMatch(/returned 0 content items/);
  });

  it("refuses a content item with neither text nor blob, and a URI that is not ui://", async () => {
    const empty = await failure(
      readViewResource(stub({ contents: [{ uri: "ui://a", mimeType: MIME } as never] }), "ui://a"),
    );
    expect(empty.message).toMatch(/neither text nor a base64 blob/);
    const scheme = await failure(readViewResource(stub({ contents: [] }), "https://example.com"));
    expect(scheme.code).toBe("invalid_view_uri");
  });

  it("takes _meta.ui from the resources/list entry when the content has none", async () => {
    const { source, listings } = serve((server) =>
      registerAppResource(
        server,
        "page",
        "ui://fixture/listed",
        { _meta: { ui: { prefersBorder: false, permissions: { camera: {} } } } },
        async () => ({ contents: [{ uri: "ui://fixture/listed", mimeType: MIME, text: PAGE }] }),
      ),
    );
    const view = await readViewResource(source, "ui://fixture/listed");
    expect(view.meta).toEqual({ prefersBorder: false, permissions: { camera: {} } });
    expect(listings()).toBe(1);
  });

  it("uses a listing given by the caller instead of listing again", async () => {
    const { source, listings } = serve((server) =>
      registerAppResource(
        server,
        "page",
        "ui://fixture/given",
        { _meta: { ui: { prefersBorder: true } } },
        async () => ({
          contents: [{ uri: "ui://fixture/given", mimeType: MIME, text: PAGE }],
        }),
      ),
    );
    const view = await readViewResource(source, "ui://fixture/given", [
      {
        uri: "ui://fixture/given",
        name: "page",
        _meta: { ui: { csp: { connectDomains: ["https://x.example"] } } },
      },
    ]);
    expect(view.meta).toEqual({ csp: { connectDomains: ["https://x.example"] } });
    expect(listings()).toBe(0);
    expect((await readViewResource(source, "ui://fixture/given", [])).meta).toEqual({});
  });

  it("prefers the content item's _meta.ui over the listing's", async () => {
    const { source } = serve((server) =>
      registerAppResource(
        server,
        "page",
        "ui://fixture/both",
        { _meta: { ui: { prefersBorder: true } } },
        async () => ({
          contents: [
            {
              uri: "ui://fixture/both",
              mimeType: MIME,
              text: PAGE,
              _meta: { ui: { prefersBorder: false } },
            },
          ],
        }),
      ),
    );
    expect((await readViewResource(source, "ui://fixture/both")).meta).toEqual({
      prefersBorder: false,
    });
  });

  it("reads `meta` where a server wrote it instead of `_meta`", async () => {
    const read = {
      contents: [
        { uri: "ui://a", mimeType: MIME, text: PAGE, meta: { ui: { prefersBorder: true } } },
      ],
    };
    expect((await readViewResource(stub(read as never), "ui://a")).meta).toEqual({
      prefersBorder: true,
    });
  });

  it("gives no metadata when neither place has any, or the listing fails", async () => {
    const read = { contents: [{ uri: "ui://a", mimeType: MIME, text: PAGE }] };
    expect((await readViewResource(stub(read), "ui://a")).meta).toEqual({});
    const failing = stub(read, async () => {
      throw new SourceError("protocol", "Method not found", { rpcCode: -32601 });
    });
    expect((await readViewResource(failing, "ui://a")).meta).toEqual({});
  });

  it("refuses malformed _meta.ui with the path of the bad field", async () => {
    const read = {
      contents: [
        {
          uri: "ui://a",
          mimeType: MIME,
          text: PAGE,
          _meta: { ui: { csp: { connectDomains: "https://x" } } },
        },
      ],
    };
    const error = await failure(readViewResource(stub(read), "ui://a"));
    expect(error.code).toBe("invalid_view");
    expect(error.message).toMatch(
      /The content of ui:\/\/a has malformed _meta.ui at _meta.ui.csp.connectDomains/,
    );
  });
});
