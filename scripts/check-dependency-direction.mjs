#!/usr/bin/env node
// Checks that imports between our workspaces point one way (docs/architecture.md, "Packages and
// their direction"):
//   apps -> packages; host -> connection -> protocol; web -> protocol (and sandbox's types);
//   sandbox and the test helpers (testing) import protocol at most, and protocol nothing of ours;
//   no cycles. Any workspace may use testing as a devDependency, from its test files only.
// It reads both what each package.json declares and what each source file imports (parsed by the
// TypeScript compiler, type-only imports included), including relative paths that climb out of
// their own workspace. Circles between files inside a workspace are check-import-cycles.mjs's job.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { collectImports, sourceFiles } from "./lib/import-graph.mjs";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");

/** Which of our workspaces each workspace may depend on. */
const allowed = {
  "@mcp-chat-host/protocol": [],
  "@mcp-chat-host/sandbox": ["@mcp-chat-host/protocol"],
  "@mcp-chat-host/connection": ["@mcp-chat-host/protocol"],
  "@mcp-chat-host/host": [
    "@mcp-chat-host/connection",
    "@mcp-chat-host/protocol",
    "@mcp-chat-host/sandbox",
  ],
  "@mcp-chat-host/web": ["@mcp-chat-host/protocol", "@mcp-chat-host/sandbox"],
  "@mcp-chat-host/server": [
    "@mcp-chat-host/host",
    "@mcp-chat-host/connection",
    "@mcp-chat-host/protocol",
    "@mcp-chat-host/sandbox",
  ],
  "@mcp-chat-host/testing": ["@mcp-chat-host/protocol"],
  // The npm package bundles the server's command line and the web app's build; nothing imports it.
  "mcp-chat-host": ["@mcp-chat-host/server", "@mcp-chat-host/web"],
  // Test and measurement harnesses sit above everything.
  "@mcp-chat-host/e2e": "*",
  "@mcp-chat-host/bench": "*",
};

/** Test helpers: a devDependency of any workspace, imported only by its test files. */
const testHelpers = ["@mcp-chat-host/testing"];
const testFilePattern = /\.test\.[cm]?[jt]sx?$|(^|\/)(test|tests|e2e|bench)\//;

const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const workspaces = [];
for (const pattern of rootManifest.workspaces) {
  const dirs = pattern.endsWith("/*")
    ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => join(pattern.slice(0, -2), name))
    : [pattern];
  for (const dir of dirs) {
    try {
      const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
      workspaces.push({ dir, name: manifest.name, manifest });
    } catch {
      // not a workspace (no package.json)
    }
  }
}
const byName = new Map(workspaces.map((workspace) => [workspace.name, workspace]));
const problems = [];

function workspaceOf(path) {
  const rel = relative(root, path).split(sep).join("/");
  return workspaces.find(
    (workspace) => rel === workspace.dir || rel.startsWith(`${workspace.dir}/`),
  );
}

const edges = new Map(workspaces.map((workspace) => [workspace.name, new Set()]));
for (const workspace of workspaces) {
  const rule = allowed[workspace.name];
  if (rule === undefined) {
    problems.push(
      `${workspace.name}: no dependency rule; add it to scripts/check-dependency-direction.mjs`,
    );
    continue;
  }
  const declared = {
    ...workspace.manifest.dependencies,
    ...workspace.manifest.devDependencies,
    ...workspace.manifest.peerDependencies,
  };
  for (const dependency of Object.keys(declared)) {
    if (byName.has(dependency)) {
      edges.get(workspace.name).add(dependency);
      const testHelperInDev =
        testHelpers.includes(dependency) &&
        dependency in (workspace.manifest.devDependencies ?? {}) &&
        !(dependency in (workspace.manifest.dependencies ?? {}));
      if (rule !== "*" && !rule.includes(dependency) && !testHelperInDev) {
        problems.push(
          `${workspace.dir}/package.json depends on ${dependency}, against the direction`,
        );
      }
    }
  }
  for (const file of sourceFiles(join(root, workspace.dir))) {
    const text = readFileSync(file, "utf8");
    for (const { specifier } of collectImports(file, text)) {
      let target;
      if (specifier.startsWith("@mcp-chat-host/")) {
        target = byName.get(specifier.split("/").slice(0, 2).join("/"));
      } else if (specifier.startsWith(".")) {
        target = workspaceOf(resolve(dirname(file), specifier));
        if (target === workspace) continue;
        if (!target) {
          problems.push(`${relative(root, file)} imports ${specifier}, outside every workspace`);
          continue;
        }
        problems.push(
          `${relative(root, file)} reaches into ${target.dir} by a relative path; import ${target.name} instead`,
        );
      } else continue;
      if (!target) {
        problems.push(`${relative(root, file)} imports unknown workspace ${specifier}`);
        continue;
      }
      if (target === workspace) continue;
      edges.get(workspace.name).add(target.name);
      if (rule !== "*" && !rule.includes(target.name)) {
        const inTestFile = testFilePattern.test(relative(root, file).split(sep).join("/"));
        if (!testHelpers.includes(target.name)) {
          problems.push(`${relative(root, file)} imports ${target.name}, against the direction`);
        } else if (!inTestFile) {
          problems.push(`${relative(root, file)} imports ${target.name} outside a test file`);
        }
      }
      if (!(target.name in declared)) {
        problems.push(
          `${relative(root, file)} imports ${target.name}, which its package.json does not declare`,
        );
      }
    }
  }
}

// Cycles, over what is declared and imported.
const state = new Map();
function visit(name, path) {
  if (state.get(name) === "done") return;
  if (state.get(name) === "active") {
    problems.push(`cycle: ${[...path.slice(path.indexOf(name)), name].join(" -> ")}`);
    return;
  }
  state.set(name, "active");
  for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
  state.set(name, "done");
}
for (const name of edges.keys()) visit(name, []);

if (problems.length > 0) {
  console.error(`Dependency direction: ${problems.length} problem(s)`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(`Dependency direction: ${workspaces.length} workspaces, all imports point one way.`);
