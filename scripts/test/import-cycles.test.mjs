// Tests for the import-cycle check: the parser sees every kind of import, type-only ones included,
// and the check fails on a circle that only type imports hold together.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  buildImportGraph,
  collectImports,
  findCycles,
  resolveRelative,
  sourceFiles,
} from "../lib/import-graph.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, "fixtures", "type-only-cycle");
const script = join(here, "..", "check-import-cycles.mjs");

describe("collectImports", () => {
  it("finds every import form and marks the type-only ones", () => {
    const text = [
      'import type { A } from "./type-import";',
      'import { type B, type C } from "./inline-types";',
      'import { type D, value } from "./mixed";',
      'import defaultValue from "./default";',
      'import "./side-effect";',
      'export type { E } from "./type-export";',
      'export * from "./star";',
      'export { type F } from "./inline-type-export";',
      'const lazy = import("./dynamic");',
      'type G = import("./type-query").G;',
      'import legacy = require("./require");',
      'import type legacyType = require("./require-type");',
    ].join("\n");
    const found = collectImports("example.ts", text).map(({ specifier, typeOnly }) => [
      specifier,
      typeOnly,
    ]);
    assert.deepEqual(found, [
      ["./type-import", true],
      ["./inline-types", true],
      ["./mixed", false],
      ["./default", false],
      ["./side-effect", false],
      ["./type-export", true],
      ["./star", false],
      ["./inline-type-export", true],
      ["./dynamic", false],
      ["./type-query", true],
      ["./require", false],
      ["./require-type", true],
    ]);
  });

  it("reads JavaScript and TSX too, and ignores imports written in comments and strings", () => {
    const javaScript =
      'import { x } from "./x.js";\n// import { y } from "./y.js";\nconst s = "import z from \'./z\'";';
    assert.deepEqual(
      collectImports("example.mjs", javaScript).map(({ specifier, line }) => [specifier, line]),
      [["./x.js", 1]],
    );
    const tsx = 'import { Card } from "./card";\nexport const view = <Card title="x" />;';
    assert.deepEqual(
      collectImports("example.tsx", tsx).map(({ specifier }) => specifier),
      ["./card"],
    );
  });
});

describe("resolveRelative", () => {
  const order = join(fixture, "order.ts");
  it("resolves a name without extension, a folder's index and a .js written for a .ts", () => {
    assert.equal(resolveRelative(order, "./customer"), join(fixture, "customer.ts"));
    assert.equal(resolveRelative(order, "./invoice"), join(fixture, "invoice", "index.ts"));
    assert.equal(
      resolveRelative(join(fixture, "invoice", "index.ts"), "../order.js"),
      join(fixture, "order.ts"),
    );
  });
  it("leaves package names and missing files unresolved", () => {
    assert.equal(resolveRelative(order, "zod"), undefined);
    assert.equal(resolveRelative(order, "./missing"), undefined);
  });
});

describe("findCycles", () => {
  const graph = buildImportGraph(sourceFiles(fixture));

  it("finds the circle that type-only imports make, and leaves the leaf out", () => {
    assert.deepEqual(findCycles(graph), [
      [
        join(fixture, "customer.ts"),
        join(fixture, "invoice", "index.ts"),
        join(fixture, "order.ts"),
      ],
    ]);
  });

  it("finds no circle when only value imports count", () => {
    assert.deepEqual(
      findCycles(graph, (edge) => !edge.typeOnly),
      [],
    );
  });

  it("counts a file that imports itself, and separates independent circles", () => {
    const edge = (from, to) => ({ from, to, typeOnly: false, line: 1 });
    const handMade = new Map([
      ["a", [edge("a", "b")]],
      ["b", [edge("b", "a"), edge("b", "c")]],
      ["c", [edge("c", "d")]],
      ["d", [edge("d", "c")]],
      ["e", [edge("e", "e")]],
      ["f", [edge("f", "a")]],
    ]);
    assert.deepEqual(findCycles(handMade), [["a", "b"], ["c", "d"], ["e"]]);
  });
});

describe("check-import-cycles.mjs", () => {
  it("fails on the fixture and names each file of the circle and each import", () => {
    const run = spawnSync(process.execPath, [script, fixture], { encoding: "utf8" });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /1 circle\(s\)/);
    for (const file of ["customer.ts", "invoice/index.ts", "order.ts"]) {
      assert.match(run.stderr, new RegExp(`type-only-cycle/${file.replace(".", "\\.")}\\n`));
    }
    assert.match(run.stderr, /order\.ts:2 -> .*customer\.ts \(type-only\)/);
    assert.match(run.stderr, /Without type-only imports it is no circle/);
    assert.doesNotMatch(run.stderr, /leaf\.ts/);
  });

  it("passes on a folder without circles", () => {
    const run = spawnSync(process.execPath, [script, join(here, "..", "lib")], {
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Import cycles: none/);
  });
});
