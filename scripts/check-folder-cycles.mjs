#!/usr/bin/env node
// Fails when the top-level folders of a package's `src` import each other in a circle (type-only
// imports count, test files do not). The file check (check-import-cycles.mjs) keeps files from
// tying knots; this one keeps folders stacking, so each folder can be read knowing only the ones
// below it. A circle that is a deliberate price is listed in ACCEPTED with its reason; an accepted
// circle that has gone must be taken off the list too.
//   node scripts/check-folder-cycles.mjs [src folder ...]
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { folderGraph } from "./lib/folder-graph.mjs";
import { edgesWithin, findCycles, sourceFiles } from "./lib/import-graph.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Circles that are kept on purpose, by source root, each with why (folders sorted). */
const ACCEPTED = {};

function sourceRoots() {
  return ["packages", "apps"]
    .flatMap((group) =>
      readdirSync(join(root, group)).map((name) => join(root, group, name, "src")),
    )
    .filter((path) => existsSync(path));
}

const show = (file) => relative(root, file).split(sep).join("/");
const roots =
  process.argv.length > 2 ? process.argv.slice(2).map((arg) => resolve(arg)) : sourceRoots();
let failed = false;
let folders = 0;
for (const base of roots) {
  const graph = folderGraph(sourceFiles(base), base);
  folders += new Set([...graph.keys(), ...[...graph.values()].flat().map((edge) => edge.to)]).size;
  const accepted = ACCEPTED[show(base)] ?? [];
  const cycles = findCycles(graph);
  const keys = cycles.map((cycle) => cycle.join(" "));
  for (const [index, cycle] of cycles.entries()) {
    if (accepted.some((entry) => entry.folders.join(" ") === keys[index])) continue;
    failed = true;
    console.error(`Folder circle in ${show(base)}: ${cycle.join(", ")}`);
    console.error("  through these folder imports (count, then the first):");
    const pairs = new Map();
    for (const edge of edgesWithin(graph, cycle)) {
      const pair = `${edge.from} -> ${edge.to}`;
      pairs.set(pair, [...(pairs.get(pair) ?? []), edge]);
    }
    for (const [pair, edges] of pairs) {
      const [first] = edges;
      const kind = edges.every((edge) => edge.typeOnly) ? "type-only" : "value";
      console.error(
        `    ${pair}: ${edges.length} (${kind}), e.g. ${show(first.fromFile)}:${first.line} -> ${show(first.toFile)}`,
      );
    }
  }
  for (const entry of accepted) {
    if (keys.includes(entry.folders.join(" "))) continue;
    failed = true;
    console.error(
      `The accepted folder circle ${entry.folders.join(", ")} in ${show(base)} is gone: take it off ACCEPTED in scripts/check-folder-cycles.mjs.`,
    );
  }
}
if (failed) {
  console.error(
    "Move the file that points up into the folder it serves, or have the lower folder own the interface it needs, then run this check again.",
  );
  process.exit(1);
}
console.log(`Folder cycles: none among the ${folders} folders of ${roots.length} source roots.`);
