// Builds the publishable package into dist/: the server's command line (apps/server/src/cli.ts)
// bundled by esbuild with every workspace package and pure-JavaScript dependency inside, plus the
// built web app (dist/web/), example views (dist/views/) and the audit's worker thread
// (dist/sqlite-audit-worker.mjs) that the bundle finds beside itself.
// What cannot be bundled stays a dependency in package.json: better-sqlite3 (a native addon) and
// pino with pino-pretty (its transports load by file name in a worker thread). Modules the code
// loads with `import()` (the model providers, the cluster's Postgres and Redis clients) become
// chunks of their own, read only when chosen (a CommonJS one through commonjs-dynamic-imports.mjs,
// so its chunk has the named exports Node gives it). Run by `turbo run build` after the web app
// and the views are built.
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { commonJsDynamicImports } from "./commonjs-dynamic-imports.mjs";

const packageRoot = new URL("./", import.meta.url);
const fromRoot = (path) => fileURLToPath(new URL(`../../${path}`, packageRoot));
const dist = fileURLToPath(new URL("dist/", packageRoot));
const manifest = JSON.parse(readFileSync(new URL("package.json", packageRoot), "utf8"));

const webApp = fromRoot("apps/web/dist/");
const views = fromRoot("apps/server/dist/views/");
for (const [what, folder, file] of [
  ["web app", webApp, "index.html"],
  ["example views", views, "notes.html"],
]) {
  if (!existsSync(`${folder}${file}`)) {
    throw new Error(
      `The ${what} is not built (${folder}${file} is missing): run \`npm run build\` at the repository root.`,
    );
  }
}

rmSync(dist, { recursive: true, force: true });
const result = await build({
  entryPoints: { cli: fromRoot("apps/server/src/cli.ts") },
  outdir: dist,
  bundle: true,
  // ES modules with shared chunks: an `import()` in the code becomes a file loaded on first use.
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  // Prefer each dependency's ES module build (jsonc-parser's CommonJS one requires by path).
  mainFields: ["module", "main"],
  external: Object.keys(manifest.dependencies),
  plugins: [commonJsDynamicImports()],
  // Smaller source is less to read and keep in memory at start; names stay, for readable stacks.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  // The CommonJS code inside needs `require` (for Node's own modules) in an ES module.
  banner: {
    js: [
      "#!/usr/bin/env node",
      'import { createRequire as __mchCreateRequire } from "node:module";',
      "const require = __mchCreateRequire(import.meta.url);",
    ].join("\n"),
  },
  // apps/server/src/asset-folders.ts reads this: the assets sit beside the bundle.
  define: { MCP_CHAT_HOST_BUNDLE: "true" },
  metafile: true,
  logLevel: "warning",
});

// The audit's writer thread loads its file by name (packages/host/src/store/sqlite-audit-writer.ts
// looks for it beside the bundle); it is plain JavaScript that imports only better-sqlite3.
cpSync(
  fromRoot("packages/host/src/store/sqlite-audit-worker.mjs"),
  `${dist}sqlite-audit-worker.mjs`,
);
cpSync(webApp, `${dist}web/`, { recursive: true });
cpSync(views, `${dist}views/`, { recursive: true });
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(
  `built ${fileURLToPath(new URL("dist/cli.js", packageRoot))} (${(bytes / 1_048_576).toFixed(1)} MiB of JavaScript in ${Object.keys(result.metafile.outputs).length} files)\n`,
);
