// The import graph between the top-level folders of one source root: a file's folder is the first
// segment of its path under the root; a file directly in the root is its own node. Test files and
// test-support folders are left out, since tests may reach into any layer they exercise.
import { relative, sep } from "node:path";
import { buildImportGraph } from "./import-graph.mjs";

// Whether a file is test code rather than a layer of the package.
function isTestFile(file) {
  return /\.test\.[cm]?tsx?$|\/(testing|test-support)\//.test(file.split(sep).join("/"));
}

/**
 * The folder graph of `files` under `base`: Map<folder, { to, from, line, typeOnly }[]>, one edge
 * per import that crosses folders (the edge keeps the file-level import that makes it).
 */
export function folderGraph(files, base) {
  const folderOf = (file) => relative(base, file).split(sep)[0];
  const graph = new Map();
  for (const [from, edges] of buildImportGraph(files.filter((file) => !isTestFile(file)))) {
    for (const edge of edges) {
      if (!edge.to.startsWith(base + sep)) continue;
      const source = folderOf(from);
      const target = folderOf(edge.to);
      if (source === target) continue;
      if (!graph.has(source)) graph.set(source, []);
      graph
        .get(source)
        .push({ ...edge, from: source, to: target, fromFile: from, toFile: edge.to });
    }
  }
  return graph;
}
