// The `box` entry option as the configuration validates it, and the bubblewrap command line of
// one server: what is emptied, what is put back, and that the secrets are hidden last.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseMcpConfig } from "./config/parse-config";
import { boxArguments } from "./server-box-mounts";

function stdioEntry(box: unknown) {
  return parseMcpConfig({ mcpServers: { files: { command: "node", args: [], box } } }).servers[
    "files"
  ];
}

describe("the box entry option", () => {
  it("reads false, or network, read and write with their defaults", () => {
    expect(stdioEntry(false)).toMatchObject({ box: false });
    expect(stdioEntry({})).toMatchObject({ box: { network: true, read: [], write: [] } });
    expect(stdioEntry({ network: false, read: ["/srv/a"], write: ["/srv/b"] })).toMatchObject({
      box: { network: false, read: ["/srv/a"], write: ["/srv/b"] },
    });
    expect(stdioEntry(undefined)).not.toHaveProperty("box");
  });

  it("refuses anything else, saying what it must be", () => {
    expect(() => stdioEntry(true)).toThrow(
      'MCP server "files" has an invalid "box": must be false, or an object with "network" (true or false), "read" and "write" (lists of absolute paths). Fix the entry in the configuration.',
    );
    expect(() => stdioEntry({ read: ["relative/path"] })).toThrow(
      'MCP server "files" has an invalid "box.read.0": must be absolute paths (starting with /).',
    );
    expect(() => stdioEntry({ writes: ["/srv"] })).toThrow(/invalid "box": Unrecognized key/);
  });
});

describe("boxArguments", () => {
  const hiding = { hiddenFolders: [] as string[], hiddenFiles: [] as string[] };

  it("empties home, the working directory and /tmp, puts back the program's package and what the entry declares, and hides the secrets last", () => {
    const folder = mkdtempSync(join(tmpdir(), "box-arguments-"));
    const project = join(folder, "project");
    const data = join(folder, "data");
    mkdirSync(join(project, "node_modules"), { recursive: true });
    mkdirSync(data);
    writeFileSync(join(project, "package.json"), "{}");
    writeFileSync(join(project, "server.mjs"), "");
    const config = join(folder, "config.json");
    writeFileSync(config, "{}");
    const args = boxArguments(
      { hiddenFolders: [data], hiddenFiles: [config] },
      {
        command: process.execPath,
        args: [join(project, "server.mjs")],
        env: {},
        box: { network: false, read: [], write: [folder] },
      },
    );
    const pairs = args.join(" ");
    expect(args.slice(0, 10)).toContain("--die-with-parent");
    expect(pairs).toContain("--cap-drop ALL");
    expect(pairs).toContain("--unshare-net");
    expect(pairs).toContain(`--tmpfs ${homedir()}`);
    expect(pairs).toContain(`--tmpfs ${process.cwd()}`);
    expect(pairs).toContain("--tmpfs /tmp");
    // Put back after /tmp is emptied: the writable folder, then the package inside it read-only.
    const at = (text: string) => pairs.indexOf(text);
    expect(at(`--bind ${folder} ${folder}`)).toBeGreaterThan(at("--tmpfs /tmp"));
    expect(at(`--ro-bind ${project} ${project}`)).toBeGreaterThan(at(`--bind ${folder}`));
    // Last, after everything put back: the data folder and the config file.
    expect(at(`--tmpfs ${data}`)).toBeGreaterThan(at(`--ro-bind ${project}`));
    expect(at(`--ro-bind /dev/null ${config}`)).toBeGreaterThan(at(`--tmpfs ${data}`));
    expect(args.slice(-5)).toEqual([
      "--chdir",
      process.cwd(),
      "--",
      process.execPath,
      join(project, "server.mjs"),
    ]);
  });

  it("fails as spawn does for a command that is not found, and names a declared path that is missing", () => {
    expect(() =>
      boxArguments(hiding, {
        command: "no-such-program-here",
        args: [],
        env: { PATH: "/nonexistent" },
      }),
    ).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(() =>
      boxArguments(hiding, {
        command: process.execPath,
        args: [],
        env: {},
        box: { network: true, read: ["/no/such/folder"], write: [] },
      }),
    ).toThrow('box.read names "/no/such/folder", which does not exist.');
  });
});
