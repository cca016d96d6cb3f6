// Tests for the folder-cycle check: a circle between two folders fails it, even when only type
// imports hold it, and imports from test files do not count.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { folderGraph } from "../lib/folder-graph.mjs";
import { findCycles, sourceFiles } from "../lib/import-graph.mjs";

const script = join(dirname(fileURLToPath(import.meta.url)), "..", "check-folder-cycles.mjs");
const scratch = mkdtempSync(join(tmpdir(), "folder-cycles-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a source root from a map of relative path to file text. */
function sourceRoot(name, files) {
  const base = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  return base;
}

describe("folderGraph", () => {
  it("finds a circle held by a type-only import", () => {
    const base = sourceRoot("typed", {
      "upper/service.ts":
        'import { lower } from "../lower/state";\nexport const service = lower;\n',
      "lower/state.ts": 'import type { Service } from "../upper/types";\nexport const lower = 1;\n',
      "upper/types.ts": "export type Service = number;\n",
    });
    assert.deepEqual(findCycles(folderGraph(sourceFiles(base), base)), [["lower", "upper"]]);
  });

  it("leaves test files and files in the root out", () => {
    const base = sourceRoot("tests", {
      "upper/service.ts":
        'import { lower } from "../lower/state";\nexport const service = lower;\n',
      "lower/state.ts": "export const lower = 1;\n",
      "lower/state.test.ts": 'import { service } from "../upper/service";\nvoid service;\n',
      "root.ts": 'import { service } from "./upper/service";\nexport const root = service;\n',
    });
    assert.deepEqual(findCycles(folderGraph(sourceFiles(base), base)), []);
  });
});

describe("check-folder-cycles", () => {
  it("fails on a folder circle and names the imports that make it", () => {
    const base = sourceRoot("failing", {
      "a/one.ts": 'import { two } from "../b/two";\nexport const one = two;\n',
      "b/two.ts": 'import type { Three } from "../a/three";\nexport const two: Three = 2;\n',
      "a/three.ts": "export type Three = number;\n",
    });
    const run = spawnSync(process.execPath, [script, base], { encoding: "utf8" });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /Folder circle in .*: a, b/);
    assert.match(run.stderr, /b -> a: 1 \(type-only\)/);
  });

  it("passes the repository's own source roots", () => {
    const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
  });
});
