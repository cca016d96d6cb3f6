// An esbuild plugin for the bundle's `import()` of CommonJS modules. With code splitting, esbuild
// makes such a module a chunk whose only export is `default` (the module's `exports`;
// evanw/esbuild#3245, #4377), so `const { createClient } = await import("redis")` finds nothing
// in the bundle although it works under Node. Node gives a CommonJS module's namespace the names
// it finds in the source, and `default` is `module.exports`; this plugin gives the bundle's chunk
// the same: every `import()` whose target is CommonJS goes through a small ES module that
// requires it and exports those names one by one, so the chunk is an ES module with real exports.
// The names are the ones Node itself gives when the build imports the module.
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";

const namespace = "commonjs-dynamic-import";
// An export name the wrapper can write as `export { value as name }` (IdentifierName).
const identifierName = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/**
 * Whether esbuild reads `path` as CommonJS. It decides by the code, as it does in the bundle, and
 * says so only when bundling: the file alone is bundled here, everything it imports left out.
 */
async function isCommonJs(path) {
  const result = await esbuild({
    entryPoints: [path],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    logLevel: "silent",
    plugins: [
      {
        name: "only-this-file",
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) =>
            args.kind === "entry-point" ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return Object.values(result.metafile.inputs).some((input) => input.format === "cjs");
}

/** The names Node's `import()` of `path` exports besides `default`. */
async function nodeExportNames(path) {
  let module;
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    throw new Error(
      `The bundle imports ${path} with import(), and Node cannot load it to list its exports: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return Object.keys(module).filter((name) => name !== "default" && identifierName.test(name));
}

/**
 * The plugin: `import()` of a CommonJS module gives its named exports in the bundle too.
 *
 * @returns the esbuild plugin.
 */
export function commonJsDynamicImports() {
  return {
    name: "commonjs-dynamic-imports",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData?.[namespace] === true) {
          return undefined;
        }
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { [namespace]: true },
        });
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== "file") {
          return undefined;
        }
        if (!(await isCommonJs(resolved.path))) return undefined;
        return { path: resolved.path, namespace };
      });
      build.onLoad({ filter: /.*/, namespace }, async (args) => {
        const names = await nodeExportNames(args.path);
        const lines = [
          `const commonJs = require(${JSON.stringify(args.path)});`,
          "export default commonJs;",
          ...names.map((name, index) => `const value${index} = commonJs[${JSON.stringify(name)}];`),
          `export { ${names.map((name, index) => `value${index} as ${name}`).join(", ")} };`,
        ];
        return { contents: lines.join("\n"), resolveDir: dirname(args.path), loader: "js" };
      });
    },
  };
}
