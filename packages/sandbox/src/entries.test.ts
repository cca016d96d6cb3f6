// The browser bundles `@mcp-chat-host/sandbox` whole, so its entry must reach no Node module and
// none of the server's code (`src/server/`, which only `@mcp-chat-host/sandbox/server` exports).
// This walks the entry's imports as written, type imports and re-exports included, through the
// workspace packages it uses.
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = resolve(here, "..");
const packagesRoot = resolve(packageRoot, "..");
const serverFolder = join(packageRoot, "src", "server");

/** Most files one entry may reach; the walk stops there rather than loop on a resolver mistake. */
const FILE_LIMIT = 500;

const specifierPattern =
  /(?:^|[\s;])(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function specifiersOf(source: string): string[] {
  // Comments may quote import lines; they are not imports.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(specifierPattern)].map((match) => match[1] ?? match[2] ?? "");
}

function resolveFile(base: string): string {
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(`Cannot resolve ${base}`);
}

/** A workspace package's entry, from its package.json `exports`. */
function workspaceEntry(specifier: string): string {
  const [, name, ...rest] = specifier.split("/");
  const folder = join(packagesRoot, name ?? "");
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    exports: Record<string, string>;
  };
  const subpath = rest.length === 0 ? "." : `./${rest.join("/")}`;
  const target = manifest.exports[subpath];
  if (target === undefined) throw new Error(`${specifier} is not exported`);
  return join(folder, target);
}

interface Walk {
  files: string[];
  external: string[];
}

function walk(entry: string): Walk {
  const seen = new Set<string>();
  const external = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    if (seen.size >= FILE_LIMIT) throw new Error(`More than ${FILE_LIMIT} files from ${entry}`);
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) queue.push(resolveFile(resolve(dirname(file), specifier)));
      else if (specifier.startsWith("@mcp-chat-host/")) queue.push(workspaceEntry(specifier));
      else external.add(specifier);
    }
  }
  return { files: [...seen], external: [...external] };
}

const nodeModules = new Set(builtinModules);
const isNodeModule = (specifier: string) =>
  specifier.startsWith("node:") || nodeModules.has(specifier.split("/")[0] ?? "");

describe("the sandbox package's entries", () => {
  it("keeps the browser entry free of Node modules and of the server's code", () => {
    const { files, external } = walk(join(packageRoot, "src", "index.ts"));
    // The walk found the package (a broken pattern would find only the entry).
    expect(files.length).toBeGreaterThan(15);
    expect(external.filter(isNodeModule)).toEqual([]);
    const serverFiles = files
      .filter((file) => file.startsWith(serverFolder))
      .map((file) => relative(packageRoot, file));
    expect(serverFiles).toEqual([]);
  });

  it("reaches the request handler only through the server entry", () => {
    const { files } = walk(join(packageRoot, "src", "server.ts"));
    expect(files).toContain(join(serverFolder, "sandbox-request.ts"));
  });

  it("reads every kind of import the walk must follow", () => {
    const sample = [
      'import { createServer } from "node:http";',
      "import type {\n  Shape,\n} from '../shape';",
      'export * from "./re-exported";',
      'export { named } from "./named";',
      'import "./side-effect";',
      'const later = await import("./dynamic");',
      '// import { commented } from "./commented";',
    ].join("\n");
    expect(specifiersOf(sample)).toEqual([
      "node:http",
      "../shape",
      "./re-exported",
      "./named",
      "./side-effect",
      "./dynamic",
    ]);
    expect(isNodeModule("node:http") && isNodeModule("fs") && !isNodeModule("zod")).toBe(true);
  });
});
