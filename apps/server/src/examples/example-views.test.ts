// The example pages as the browser gets them: built by the real build script into a temporary
// folder (so the test needs no earlier build and leaves dist/ alone), then read through each app's
// real in-process source as its `ui://` resource.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSource, viewOf } from "./test-support";
import { EXAMPLE_VIEW_NAMES, assertExampleViewsBuilt, exampleApps, viewFile } from "./index";

const run = promisify(execFile);
const buildScript = new URL("./build-views.mjs", import.meta.url);

/** The `data-testid`s each page must have for the end-to-end tests. */
const TEST_IDS: Record<string, string[]> = {
  notes: ["notes-text", "notes-save", "notes-ask", "notes-status", "notes-words"],
  tasks: [
    "task-input",
    "task-add",
    "task-list",
    "task-delete-all",
    "task-error",
    "task-refresh",
    "task-count",
    "task-status",
  ],
  "data-table": [
    "table",
    "table-fullscreen",
    "table-docs-link",
    "table-chart",
    "table-title",
    "table-status",
  ],
};

let built: URL;
let empty: URL;
const folders: string[] = [];

beforeAll(async () => {
  const builtFolder = await mkdtemp(join(tmpdir(), "example-views-"));
  const emptyFolder = await mkdtemp(join(tmpdir(), "example-views-empty-"));
  folders.push(builtFolder, emptyFolder);
  await run(process.execPath, [fileURLToPath(buildScript), "--out-dir", builtFolder], {
    timeout: 120_000,
  });
  built = pathToFileURL(`${builtFolder}/`);
  empty = pathToFileURL(`${emptyFolder}/`);
}, 150_000);

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe("the built example pages", () => {
  it.each(EXAMPLE_VIEW_NAMES)(
    "%s is one self-contained HTML file with the App SDK",
    async (name) => {
      const html = await readFile(viewFile(name, built), "utf8");
      expect(html.startsWith("<!doctype html>")).toBe(true);
      // Nothing left to fetch: no external script, stylesheet or module preload.
      expect(html).not.toMatch(/<script[^>]*\ssrc=/iu);
      expect(html).not.toMatch(/<link[^>]*rel="(stylesheet|modulepreload)"/iu);
      expect(html).toMatch(/<script type="module">/u);
      expect(html).toMatch(/<style[^>]*>/u);
      // The App SDK's handshake and the page's own code are bundled in.
      expect(html).toContain("ui/initialize");
      expect(html).toContain("ui/notifications/initialized");
      for (const testId of TEST_IDS[name] ?? []) {
        expect(html, testId).toContain(`data-testid="${testId}"`);
      }
    },
  );

  it("serves each page as the app's ui:// resource with the MCP App mime type", async () => {
    for (const app of exampleApps({ viewsDirectory: built })) {
      const source = await openSource(app);
      const result = await source.readResource(`ui://${app.name}`);
      expect(result.contents, app.name).toHaveLength(1);
      const [content] = result.contents;
      expect(content?.mimeType).toBe("text/html;profile=mcp-app");
      const text = content !== undefined && "text" in content ? content.text : undefined;
      expect(text).toBe(await readFile(viewFile(app.name, built), "utf8"));
    }
  });

  it("fails to read a page that is not built with a message that says to build", async () => {
    const [notes] = exampleApps({ viewsDirectory: empty });
    if (notes === undefined) throw new Error("exampleApps() returned no apps.");
    const source = await openSource(notes);
    await expect(source.readResource("ui://notes")).rejects.toThrow(/npm run build/u);
    // The tools work without the page.
    expect((await source.callTool("open-notes", {})).isError).toBeFalsy();
  });

  it("checks at start that every page is built, naming the missing ones", async () => {
    await expect(assertExampleViewsBuilt(built)).resolves.toBeUndefined();
    await expect(assertExampleViewsBuilt(empty)).rejects.toMatchObject({
      code: "view_not_built",
    });
    await expect(assertExampleViewsBuilt(empty)).rejects.toThrow(
      /example apps "notes", "tasks", "data-table" are not built.*npm run build/u,
    );
  });
});

describe("exampleApps", () => {
  it("gives notes, tasks and data-table, each opening only its own page", async () => {
    const apps = exampleApps({ viewsDirectory: built });
    expect(apps.map((app) => [app.name, app.title])).toEqual([
      ["notes", "Notes"],
      ["tasks", "Tasks"],
      ["data-table", "Data table"],
    ]);
    for (const app of apps) {
      const source = await openSource(app);
      const views = (await source.tools()).map(viewOf).filter((uri) => uri !== undefined);
      expect(views.length, app.name).toBeGreaterThan(0);
      expect(new Set(views), app.name).toEqual(new Set([`ui://${app.name}`]));
    }
  });
});
