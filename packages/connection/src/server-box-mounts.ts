// The bubblewrap command line of one server's box: the system read-only, the person's home, the
// host's working directory and the temporary folder emptied, then put back (read-only) only what
// the server's program needs to run, what its entry declares, and last the host's secrets hidden.
import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { McpStdioBox } from "./config/config-types";

/** What every box hides from its server. */
export interface BoxHiding {
  /** Folders shown as empty. */
  hiddenFolders: readonly string[];
  /** Files shown as empty. */
  hiddenFiles: readonly string[];
}

/** The flags every box gets; network, mounts and the working directory follow per server. */
export const boxBaseFlags: readonly string[] = [
  "--die-with-parent",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--new-session",
  // A server run by root would otherwise keep CAP_SYS_ADMIN and could unmount what hides the
  // data folder (umount -l); with no capability, no mount changes.
  "--cap-drop",
  "ALL",
];

/** One server to box. */
export interface BoxRequest {
  command: string;
  args: readonly string[];
  /** The server's environment (its `PATH` finds the command). */
  env: Readonly<Record<string, string | undefined>>;
  /** The working directory the entry asked for; the host's own (emptied in the box) otherwise. */
  cwd?: string | undefined;
  /** What the entry's `box` lets the server reach besides; absent for the default box. */
  box?: McpStdioBox | undefined;
}

interface Mount {
  kind: "tmpfs" | "read" | "write";
  path: string;
}

// Same depth: the empty folder first, then what is put back in it, writable last.
const kindOrder: Record<Mount["kind"], number> = { tmpfs: 0, read: 1, write: 2 };
// An npm package name, maybe with a version (`@scope/name@1.2.3`), as npx takes it.
const packageSpec = /^((?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*)(?:@[^/]+)?$/;

/**
 * The arguments of `bwrap` for one server, its command line last.
 *
 * @throws Error with code `ENOENT` when the command is not found; Error for a declared path that
 *   does not exist.
 */
export function boxArguments(policy: BoxHiding, request: BoxRequest): string[] {
  const home = homedir();
  const hostCwd = process.cwd();
  const workingDirectory = resolve(hostCwd, request.cwd ?? ".");
  const program = findProgram(request.command, request.env["PATH"] ?? "", workingDirectory);
  if (program === undefined) {
    throw Object.assign(new Error(`spawn ${request.command} ENOENT`), {
      code: "ENOENT",
      errno: -2,
      syscall: `spawn ${request.command}`,
      path: request.command,
    });
  }
  const emptied = unique([home, hostCwd, "/tmp", tmpdir()].filter((path) => path !== sep));
  const reads = new Set<string>();
  const addPackage = (root: string) => {
    reads.add(root);
    // Node looks up every ancestor's node_modules, and reads the nearest package.json (`type`).
    for (let folder = dirname(root); ; folder = dirname(folder)) {
      for (const name of ["node_modules", "package.json"]) {
        const path = join(folder, name);
        if (existsSync(path)) reads.add(path);
      }
      if (folder === dirname(folder)) break;
    }
  };
  const addFile = (file: string) => {
    for (const path of unique([file, realPath(file)])) addPackage(packageRoot(path, home));
  };
  addFile(program);
  // The Node that runs the server (npx, a `#!/usr/bin/env node` bin): its whole install prefix.
  reads.add(dirname(dirname(realPath(process.execPath))));
  for (const argument of request.args) {
    const target = argumentTarget(argument, workingDirectory);
    if (target?.kind === "file") addFile(target.path);
    else if (target?.kind === "folder") reads.add(target.path).add(realPath(target.path));
    else if (target?.kind === "package") addPackage(target.path);
  }
  if (request.cwd !== undefined) reads.add(workingDirectory);
  for (const path of request.box?.read ?? []) reads.add(declared(path, "read"));
  const writes = (request.box?.write ?? []).map((path) => declared(path, "write"));
  // npx keeps the packages it installs here.
  const npmCache = join(home, ".npm");
  if (existsSync(npmCache)) writes.push(npmCache);

  const mounts: Mount[] = [
    ...emptied.map((path) => ({ kind: "tmpfs" as const, path })),
    // Already visible read-only through `/` unless under an emptied folder.
    ...[...reads]
      .filter((path) => emptied.some((folder) => isWithin(path, folder)))
      .map((path) => ({ kind: "read" as const, path })),
    ...unique(writes).map((path) => ({ kind: "write" as const, path })),
  ].sort(
    (left, right) =>
      depth(left.path) - depth(right.path) || kindOrder[left.kind] - kindOrder[right.kind],
  );
  const args = [
    ...boxBaseFlags,
    ...(request.box?.network === false ? ["--unshare-net"] : []),
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
  ];
  for (const mount of mounts) {
    if (mount.kind === "tmpfs") args.push("--tmpfs", mount.path);
    else args.push(mount.kind === "read" ? "--ro-bind" : "--bind", mount.path, mount.path);
  }
  // Last, so that nothing put back above shows them again.
  for (const folder of policy.hiddenFolders) {
    if (existsSync(folder)) args.push("--tmpfs", folder);
  }
  for (const file of policy.hiddenFiles) {
    if (existsSync(file)) args.push("--ro-bind", "/dev/null", file);
  }
  args.push("--chdir", workingDirectory, "--", program, ...request.args);
  return args;
}

/**
 * Finds a program as spawn does: a path (with a slash) from `cwd`, otherwise on `PATH`.
 *
 * @returns its absolute path, or undefined when there is no such executable file.
 */
export function findProgram(command: string, path: string, cwd: string): string | undefined {
  const candidates = command.includes("/")
    ? [resolve(cwd, command)]
    : path.split(delimiter).map((folder) => resolve(cwd, folder, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

// An argument that names an existing file or folder (from the working directory), or a package
// installed in a node_modules above it (what npx runs).
function argumentTarget(
  argument: string,
  workingDirectory: string,
): { kind: "file" | "folder" | "package"; path: string } | undefined {
  if (argument === "" || argument.startsWith("-")) return undefined;
  const path = resolve(workingDirectory, argument);
  if ((argument.includes("/") || argument === "." || argument === "..") && existsSync(path)) {
    return { kind: statSync(path).isDirectory() ? "folder" : "file", path };
  }
  const name = packageSpec.exec(argument)?.[1];
  if (name === undefined) return undefined;
  for (let folder = workingDirectory; ; folder = dirname(folder)) {
    const root = join(folder, "node_modules", name);
    if (existsSync(join(root, "package.json"))) return { kind: "package", path: root };
    if (folder === dirname(folder)) return undefined;
  }
}

// The folder of the nearest package.json above a file: what Node needs beside it. Never the
// home folder or above it (a stray ~/package.json would show the whole home).
function packageRoot(file: string, home: string): string {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    if (isWithin(home, folder)) return dirname(file);
    if (existsSync(join(folder, "package.json"))) return folder;
    if (folder === dirname(folder)) return dirname(file);
  }
}

function declared(path: string, key: "read" | "write"): string {
  if (!existsSync(path)) {
    throw new Error(
      `box.${key} names ${JSON.stringify(path)}, which does not exist. Create it, or remove it from the entry's "box".`,
    );
  }
  return path;
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

// Whether `path` is `folder` or inside it.
function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function depth(path: string): number {
  return path.split(sep).filter((part) => part !== "").length;
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((path) => isAbsolute(path)))];
}
