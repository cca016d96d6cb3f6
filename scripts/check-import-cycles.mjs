#!/usr/bin/env node
// Fails when source files import each other in a circle, counting type-only imports: a circle held
// together by `import type` still ties the files' designs together even though nothing breaks when
// the modules load. Checks every workspace (packages/*, apps/*, e2e, bench), or the folders given
// as arguments. Circles between workspaces are the dependency-direction check's job.
//   node scripts/check-import-cycles.mjs [folder ...]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { buildImportGraph, edgesWithin, findCycles, sourceFiles } from "./lib/import-graph.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function workspaceFolders() {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const folders = [];
  for (const pattern of manifest.workspaces) {
    const dirs = pattern.endsWith("/*")
      ? readdirSync(join(root, pattern.slice(0, -2))).map((name) =>
          join(pattern.slice(0, -2), name),
        )
      : [pattern];
    for (const dir of dirs) {
      const path = join(root, dir);
      if (statSync(path).isDirectory()) folders.push(path);
    }
  }
  return folders;
}

const folders =
  process.argv.length > 2 ? process.argv.slice(2).map((arg) => resolve(arg)) : workspaceFolders();
const files = folders.flatMap((folder) => sourceFiles(folder));
const graph = buildImportGraph(files);
const cycles = findCycles(graph);
const show = (file) => relative(root, file).split(sep).join("/");

if (cycles.length === 0) {
  console.log(`Import cycles: none among ${files.length} files (type-only imports count).`);
  process.exit(0);
}

console.error(`Import cycles: ${cycles.length} circle(s) between files (type-only imports count).`);
for (const cycle of cycles) {
  const valueCycles = findCycles(
    new Map(cycle.map((file) => [file, graph.get(file) ?? []])),
    (edge) => !edge.typeOnly,
  );
  console.error(`  - a circle of ${cycle.length} file(s):`);
  for (const file of cycle) console.error(`      ${show(file)}`);
  console.error("    through these imports:");
  for (const edge of edgesWithin(graph, cycle)) {
    const kind = edge.typeOnly ? "type-only" : "value";
    console.error(`      ${show(edge.from)}:${edge.line} -> ${show(edge.to)} (${kind})`);
  }
  console.error(
    valueCycles.length === 0
      ? "    Without type-only imports it is no circle: have the importer own the interface it needs."
      : "    It is a circle of value imports too: the modules depend on each other as they load.",
  );
}
console.error("Break each circle so that imports point one way, then run this check again.");
process.exit(1);
