import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { appResourceUri } from "./app-resource-uri";
import { McpApp } from "./mcp-app";
import { appTool } from "./mcp-app-types";
import type { Source, SourceProgress } from "./source";
import { SourceError } from "./source-error";
import { isVisibleTo, toolResourceUri, toolVisibility } from "./tool-metadata";
import { readViewResource } from "./view-resource";

const PAGE = "<!doctype html><html><body>notes</body></html>";

const opened: Source[] = [];
async function open(app: McpApp): Promise<Source> {
  const source = await app.source();
  opened.push(source);
  return source;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((source) => source.close()));
});

function notesApp(): McpApp {
  return new McpApp({
    name: "notes",
    title: "Notes",
    html: PAGE,
    csp: { connectDomains: ["https://api.example.com"] },
    permissions: { clipboardWrite: {} },
    prefersBorder: true,
    tools: [
      appTool({
        name: "show-notes",
        title: "Show notes",
        description: "Shows the notes.",
        inputSchema: { filter: z.string().optional() },
        annotations: { readOnlyHint: true },
        handler: (args) => ({
          content: [{ type: "text", text: `filter=${args.filter ?? "none"}` }],
        }),
      }),
      {
        name: "save-note",
        description: "Saves a note; called by the page.",
        inputSchema: { text: z.string() },
        visibility: ["app"],
        handler: (_args, extra) => {
          const count = ((extra.state["count"] as number | undefined) ?? 0) + 1;
          extra.state["count"] = count;
          return { content: [{ type: "text", text: String(count) }], structuredContent: { count } };
        },
      },
      {
        name: "count-notes",
        description: "Counts notes without showing the page.",
        view: false,
        visibility: ["model"],
        handler: (_args, extra) => ({
          content: [{ type: "text", text: String(extra.state["count"] ?? 0) }],
        }),
      },
      {
        name: "import-notes",
        description: "Imports notes, reporting progress.",
        inputSchema: { steps: z.number().int() },
        view: false,
        handler: async (args, extra) => {
          const steps = args.steps as number;
          for (let step = 1; step <= steps; step += 1)
            await extra.sendProgress(step, steps, `step ${step}`);
          return { content: [{ type: "text", text: "imported" }] };
        },
      },
      {
        name: "broken",
        description: "Always throws.",
        view: false,
        handler: () => {
          throw new Error("the notes file is locked");
        },
      },
    ],
  });
}

describe("McpApp", () => {
  it("lists its tools with the view URI (both keys), visibility, schemas and annotations", async () => {
    const source = await open(notesApp());
    expect(source.key).toBe("notes");
    expect(source.kind).toBe("app");
    // Listed when the source opened: the in-process app's tools are there at once.
    const tools = source.cachedTools();
    expect(tools?.map((tool) => tool.name)).toEqual([
      "show-notes",
      "save-note",
      "count-notes",
      "import-notes",
      "broken",
    ]);
    const byName = new Map((tools ?? []).map((tool) => [tool.name, tool]));
    const show = byName.get("show-notes")!;
    expect(show.title).toBe("Show notes");
    expect(show.annotations).toEqual({ readOnlyHint: true });
    expect(show.inputSchema.properties).toHaveProperty("filter");
    expect(show.meta?.["ui"]).toEqual({ resourceUri: "ui://notes" });
    expect(show.meta?.["ui/resourceUri"]).toBe("ui://notes");
    expect(toolResourceUri(show)).toBe("ui://notes");
    expect(toolVisibility(show)).toEqual(["model", "app"]);

    const save = byName.get("save-note")!;
    expect(toolResourceUri(save)).toBe("ui://notes");
    expect(isVisibleTo(save, "model")).toBe(false);
    expect(isVisibleTo(save, "app")).toBe(true);

    const count = byName.get("count-notes")!;
    expect(toolResourceUri(count)).toBeUndefined();
    expect(toolVisibility(count)).toEqual(["model"]);
    expect(toolResourceUri(byName.get("broken")!)).toBeUndefined();
    expect(toolVisibility(byName.get("broken")!)).toEqual(["model", "app"]);
  });

  it("serves its page with the MCP Apps mime type and _meta.ui on the content and the listing", async () => {
    const app = notesApp();
    const source = await open(app);
    const read = await source.readResource(app.resourceUri);
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({
      uri: "ui://notes",
      mimeType: "text/html;profile=mcp-app",
      text: PAGE,
      _meta: {
        ui: {
          csp: { connectDomains: ["https://api.example.com"] },
          permissions: { clipboardWrite: {} },
          prefersBorder: true,
        },
      },
    });
    const listing = await source.listResources();
    expect(listing.resources.find((resource) => resource.uri === "ui://notes")?._meta).toEqual({
      ui: {
        csp: { connectDomains: ["https://api.example.com"] },
        permissions: { clipboardWrite: {} },
        prefersBorder: true,
      },
    });
    const view = await readViewResource(source, app.resourceUri);
    expect(view).toEqual({
      uri: "ui://notes",
      html: PAGE,
      mimeType: "text/html;profile=mcp-app",
      meta: {
        csp: { connectDomains: ["https://api.example.com"] },
        permissions: { clipboardWrite: {} },
        prefersBorder: true,
      },
    });
  });

  it("calls the page function at every read", async () => {
    let reads = 0;
    const app = new McpApp({
      name: "clock",
      html: () => `<p>read ${(reads += 1)}</p>`,
      tools: [],
    });
    const source = await open(app);
    expect((await readViewResource(source, app.resourceUri)).html).toBe("<p>read 1</p>");
    expect((await readViewResource(source, app.resourceUri)).html).toBe("<p>read 2</p>");
    expect(await source.tools()).toEqual([]);
  });

  it("passes the arguments to the handler and returns its result", async () => {
    const source = await open(notesApp());
    const result = await source.callTool("show-notes", { filter: "work" });
    expect(result.content).toEqual([{ type: "text", text: "filter=work" }]);
  });

  it("relays progress notifications in order while the tool runs", async () => {
    const source = await open(notesApp());
    const progress: SourceProgress[] = [];
    const result = await source.callTool(
      "import-notes",
      { steps: 3 },
      { onProgress: (step) => progress.push(step) },
    );
    expect(result.content).toEqual([{ type: "text", text: "imported" }]);
    expect(progress).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
  });

  it("cancels a running call through the signal, and the handler sees the abort", async () => {
    let handlerStarted!: () => void;
    const started = new Promise<void>((resolve) => (handlerStarted = resolve));
    let handlerAborted!: () => void;
    const aborted = new Promise<void>((resolve) => (handlerAborted = resolve));
    const app = new McpApp({
      name: "slow",
      html: PAGE,
      tools: [
        {
          name: "wait",
          description: "Waits until cancelled.",
          handler: (_args, extra) =>
            new Promise((resolve) => {
              extra.signal.addEventListener("abort", () => {
                handlerAborted();
                resolve({ content: [] });
              });
              handlerStarted();
            }),
        },
      ],
    });
    const source = await open(app);
    const controller = new AbortController();
    const call = source.callTool("wait", {}, { signal: controller.signal });
    await started;
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "SourceError", code: "cancelled" });
    await aborted;
  });

  it("turns a handler's throw into an error result with its message", async () => {
    const source = await open(notesApp());
    const result = await source.callTool("broken", {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("the notes file is locked");
  });

  it("gives every source its own server, so each conversation keeps its own state", async () => {
    const app = notesApp();
    const first = await open(app);
    const second = await open(app);
    await first.callTool("save-note", { text: "a" });
    const again = await first.callTool("save-note", { text: "b" });
    expect(again.structuredContent).toEqual({ count: 2 });
    expect((await second.callTool("count-notes", {})).content).toEqual([
      { type: "text", text: "0" },
    ]);
    expect((await second.callTool("save-note", { text: "c" })).structuredContent).toEqual({
      count: 1,
    });
    expect((await first.callTool("count-notes", {})).content).toEqual([
      { type: "text", text: "2" },
    ]);
  });

  it("checks the arguments in every server of one app, which share its tool schemas", async () => {
    const app = notesApp();
    const servers = [await open(app), await open(app), await open(app)];
    for (const source of servers) {
      const refused = await source.callTool("import-notes", { steps: "three" });
      expect(refused.isError).toBe(true);
      const done = await source.callTool("import-notes", { steps: 1 });
      expect(done.content).toEqual([{ type: "text", text: "imported" }]);
    }
  });

  it("closes: later requests fail with `closed` and close listeners run once", async () => {
    const source = await open(notesApp());
    let closes = 0;
    source.onClose(() => (closes += 1));
    await source.close();
    await source.close();
    expect(source.closed).toBe(true);
    expect(closes).toBe(1);
    await expect(source.callTool("show-notes", {})).rejects.toMatchObject({ code: "closed" });
  });

  it("percent-encodes characters of the name that cannot stand in a URI's host", async () => {
    expect(appResourceUri("notes")).toBe("ui://notes");
    expect(appResourceUri("my notes/2?#")).toBe("ui://my%20notes%2F2%3F%23");
    expect(appResourceUri("café")).toBe("ui://caf%C3%A9");
    expect(appResourceUri("a:b@c")).toBe("ui://a%3Ab%40c");
    const app = new McpApp({
      name: "my notes/2",
      html: PAGE,
      tools: [{ name: "open", description: "Opens.", handler: () => ({ content: [] }) }],
    });
    expect(app.resourceUri).toBe("ui://my%20notes%2F2");
    expect(new URL(app.resourceUri).href).toBe(app.resourceUri);
    const source = await open(app);
    const [tool] = await source.tools();
    expect(toolResourceUri(tool!)).toBe("ui://my%20notes%2F2");
    expect((await readViewResource(source, app.resourceUri)).html).toBe(PAGE);
  });

  it("refuses a duplicate tool name at construction", () => {
    const handler = () => ({ content: [] });
    expect(
      () =>
        new McpApp({
          name: "twice",
          html: PAGE,
          tools: [
            { name: "go", description: "a", handler },
            { name: "go", description: "b", handler },
          ],
        }),
    ).toThrow(
      new SourceError(
        "invalid_options",
        'Tool names must be unique within an app; "go" is used twice in the app "twice".',
      ),
    );
  });

  it("refuses invalid names, a missing description or handler, and schemas that are not zod shapes", () => {
    const handler = () => ({ content: [] });
    const attempt = (options: Record<string, unknown>) => () =>
      new McpApp({ name: "app", html: PAGE, tools: [], ...options } as never);
    expect(attempt({ name: "" })).toThrow(/needs a name/);
    expect(attempt({ name: "a\nb" })).toThrow(/needs a name/);
    expect(attempt({ html: 3 })).toThrow(/needs `html`/);
    expect(attempt({ tools: [{ name: "has space", description: "x", handler }] })).toThrow(
      /tool names are 1-128/,
    );
    expect(attempt({ tools: [{ name: "x".repeat(129), description: "x", handler }] })).toThrow(
      /tool names are 1-128/,
    );
    expect(attempt({ tools: [{ name: "go", handler }] })).toThrow(/needs a description/);
    expect(attempt({ tools: [{ name: "go", description: "x" }] })).toThrow(/needs a handler/);
    expect(
      attempt({ tools: [{ name: "go", description: "x", handler, inputSchema: { a: "string" } }] }),
    ).toThrow(/inputSchema of "go".a must be a zod schema/);
    expect(
      attempt({ tools: [{ name: "go", description: "x", handler, visibility: ["person"] }] }),
    ).toThrow(/visibility/);
    try {
      attempt({ name: "" })();
    } catch (error) {
      expect(error).toBeInstanceOf(SourceError);
      expect((error as SourceError).code).toBe("invalid_options");
    }
  });
});
