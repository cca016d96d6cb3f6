// Builds one example view (apps/server/src/examples/<VIEW>/view/index.html) into a single
// self-contained HTML file, dist/views/<VIEW>.html: scripts (the App SDK included) and styles
// inlined, because a view is served as one `ui://` resource and may load nothing else under the
// default CSP. One view per build (single-file output allows one entry); build-views.mjs runs
// every view by setting VIEW. VIEWS_OUT_DIR overrides the output folder (the tests use it).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type UserConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

export default defineConfig((): UserConfig => {
  const view = process.env["VIEW"];
  if (view === undefined || !/^[a-z][a-z0-9-]*$/u.test(view)) {
    throw new Error(
      "Set VIEW to the example view to build (for example VIEW=notes), or run `node src/examples/build-views.mjs` to build them all.",
    );
  }
  const root = fileURLToPath(new URL(`./src/examples/${view}/view/`, import.meta.url));
  if (!existsSync(`${root}index.html`)) {
    throw new Error(`There is no example view "${view}": ${root}index.html is missing.`);
  }
  const outDir =
    process.env["VIEWS_OUT_DIR"] ?? fileURLToPath(new URL("./dist/views/", import.meta.url));
  return {
    root,
    // Views import shared code from ../../view-kit, outside their root.
    server: { fs: { allow: [fileURLToPath(new URL("./src/examples/", import.meta.url))] } },
    logLevel: "warn",
    plugins: [viteSingleFile({ removeViteModuleLoader: true, outputFileName: `${view}.html` })],
    build: {
      outDir,
      // Every view writes into the same folder, so one build must not delete the others.
      emptyOutDir: false,
      // The App SDK with its MCP client and zod is a few hundred kB; that is expected.
      chunkSizeWarningLimit: 1_024,
      reportCompressedSize: false,
    },
  };
});
