// Builds every example view into dist/views/<name>.html with vite.views.config.ts, one after the
// other in this process (a few seconds in all). Usage:
//   node src/examples/build-views.mjs [--out-dir <folder>] [<view> ...]
// With no view names it builds every folder of src/examples that has view/index.html.
import { readdirSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const examples = fileURLToPath(new URL(".", import.meta.url));
const configFile = fileURLToPath(new URL("../../vite.views.config.ts", import.meta.url));

function parseArguments(argv) {
  const views = [];
  let outDir;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === "--out-dir") {
      outDir = argv[index + 1];
      index += 1;
      if (outDir === undefined)
        throw new Error("--out-dir needs a folder, such as --out-dir dist/views.");
    } else {
      views.push(argument);
    }
  }
  return { views, outDir };
}

function allViews() {
  return readdirSync(examples, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && existsSync(resolve(examples, entry.name, "view", "index.html")),
    )
    .map((entry) => entry.name)
    .sort();
}

const { views: named, outDir } = parseArguments(process.argv.slice(2));
const views = named.length > 0 ? named : allViews();
if (outDir !== undefined) process.env.VIEWS_OUT_DIR = resolve(outDir);

for (const view of views) {
  // The config reads VIEW when it is loaded, which `build` does anew for each call.
  process.env.VIEW = view;
  await build({ configFile });
  process.stdout.write(`built the view "${view}"\n`);
}
