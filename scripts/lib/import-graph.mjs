// Reads the import graph of TypeScript and JavaScript sources with the TypeScript parser, so that
// `import type`, `export … from`, `import()` and `import("…").Type` all count as edges, and finds
// the circles in it with Tarjan's strongly-connected-components algorithm.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

/** Folders that hold installed packages, build output or test artefacts, never our sources. */
const skippedFolders = new Set([
  "node_modules",
  "dist",
  ".turbo",
  "test-results",
  "playwright-report",
  "artifacts",
  "coverage",
]);

const sourceFilePattern = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * Every source file under `dir`, skipping {@link skippedFolders}, sorted by path.
 * @param {string} dir
 * @returns {string[]}
 */
export function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir).sort()) {
    if (skippedFolders.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (sourceFilePattern.test(entry)) out.push(path);
  }
  return out;
}

function scriptKind(fileName) {
  if (fileName.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (fileName.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/**
 * @typedef {object} ImportReference
 * @property {string} specifier the module specifier as written
 * @property {boolean} typeOnly true when the import vanishes from the emitted JavaScript
 * @property {number} line 1-based line of the import
 */

/**
 * The module specifiers one file imports or re-exports, with whether each is type-only.
 * An `import { type A, type B }` counts as type-only, as does `import("./x").T` in a type.
 * @param {string} fileName used to pick the parser's language (ts, tsx, js)
 * @param {string} text the file's contents
 * @returns {ImportReference[]}
 */
export function collectImports(fileName, text) {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    scriptKind(fileName),
  );
  /** @type {ImportReference[]} */
  const found = [];
  const add = (literal, typeOnly) => {
    const { line } = source.getLineAndCharacterOfPosition(literal.getStart(source));
    found.push({ specifier: literal.text, typeOnly, line: line + 1 });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier, importIsTypeOnly(node.importClause));
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((element) => element.isTypeOnly));
      add(node.moduleSpecifier, typeOnly);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0], false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function importIsTypeOnly(clause) {
  if (!clause) return false; // `import "./x"` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false; // a default import is a value
  const bindings = clause.namedBindings;
  if (!bindings || !ts.isNamedImports(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

const resolvableExtensions = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const javaScriptToTypeScript = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

function isFile(path) {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * The file a relative specifier names: the exact file, a `.js` written for a `.ts` source, the
 * name plus a source extension, or the folder's `index` file. Undefined for bare specifiers and
 * for anything that does not exist (or is not source, such as `.css` or `.json`).
 * @param {string} fromFile the importing file
 * @param {string} specifier
 * @returns {string | undefined}
 */
export function resolveRelative(fromFile, specifier) {
  if (
    !specifier.startsWith("./") &&
    !specifier.startsWith("../") &&
    specifier !== "." &&
    specifier !== ".."
  ) {
    return undefined;
  }
  const base = resolve(dirname(fromFile), specifier.replace(/\?.*$/, ""));
  const candidates = [];
  if (sourceFilePattern.test(base)) candidates.push(base);
  for (const [written, sources] of Object.entries(javaScriptToTypeScript)) {
    if (base.endsWith(written)) {
      for (const extension of sources) candidates.push(base.slice(0, -written.length) + extension);
    }
  }
  for (const extension of resolvableExtensions) candidates.push(base + extension);
  for (const extension of resolvableExtensions) candidates.push(join(base, `index${extension}`));
  return candidates.find(isFile);
}

/**
 * @typedef {object} ImportEdge
 * @property {string} from importing file (absolute)
 * @property {string} to imported file (absolute)
 * @property {boolean} typeOnly true when every import between the two files is type-only
 * @property {number} line 1-based line of the first import of `to` in `from`
 */

/**
 * The file-to-file import graph of the given files: one edge per pair of files, type-only when
 * every import between them is. Imports of files outside `files` are left out.
 * @param {string[]} files absolute paths
 * @returns {Map<string, ImportEdge[]>} edges by importing file, in import order
 */
export function buildImportGraph(files) {
  const known = new Set(files);
  /** @type {Map<string, ImportEdge[]>} */
  const graph = new Map();
  for (const file of files) {
    /** @type {Map<string, ImportEdge>} */
    const edges = new Map();
    for (const reference of collectImports(file, readFileSync(file, "utf8"))) {
      const target = resolveRelative(file, reference.specifier);
      if (target === undefined || !known.has(target)) continue;
      const existing = edges.get(target);
      if (existing) existing.typeOnly &&= reference.typeOnly;
      else
        edges.set(target, {
          from: file,
          to: target,
          typeOnly: reference.typeOnly,
          line: reference.line,
        });
    }
    graph.set(file, [...edges.values()]);
  }
  return graph;
}

/**
 * Tarjan's strongly connected components, iteratively (no recursion limit). Returns only the
 * components that are circles: more than one file, or one file that imports itself.
 * @param {Map<string, ImportEdge[]>} graph
 * @param {(edge: ImportEdge) => boolean} [follow] which edges count; all of them by default
 * @returns {string[][]} each circle's files, sorted; circles sorted by their first file
 */
export function findCycles(graph, follow = () => true) {
  let counter = 0;
  const index = new Map();
  const lowLink = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  const successors = (node) =>
    (graph.get(node) ?? [])
      .filter((edge) => follow(edge) && graph.has(edge.to))
      .map((edge) => edge.to);

  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    /** @type {{ node: string, next: string[], position: number }[]} */
    const work = [{ node: start, next: successors(start), position: 0 }];
    index.set(start, counter);
    lowLink.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.position < frame.next.length) {
        const next = frame.next[frame.position];
        frame.position += 1;
        if (!index.has(next)) {
          index.set(next, counter);
          lowLink.set(next, counter);
          counter += 1;
          stack.push(next);
          onStack.add(next);
          work.push({ node: next, next: successors(next), position: 0 });
        } else if (onStack.has(next)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node), index.get(next)));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        lowLink.set(parent.node, Math.min(lowLink.get(parent.node), lowLink.get(frame.node)));
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const importsItself = successors(frame.node).includes(frame.node);
      if (component.length > 1 || importsItself) cycles.push(component.sort());
    }
  }
  return cycles.sort((left, right) => left[0].localeCompare(right[0]));
}

/**
 * The edges of `graph` that stay inside one circle, so a report can say how the files connect.
 * @param {Map<string, ImportEdge[]>} graph
 * @param {string[]} cycle
 * @returns {ImportEdge[]}
 */
export function edgesWithin(graph, cycle) {
  const members = new Set(cycle);
  return cycle.flatMap((file) => (graph.get(file) ?? []).filter((edge) => members.has(edge.to)));
}
