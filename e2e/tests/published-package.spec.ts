// The publishable package as someone outside the repository gets it: `npm pack` of
// packages/mcp-chat-host, installed into an empty temporary folder (its dependencies from the
// registry or npm's cache, nothing from the workspace; better-sqlite3 compiles there), started
// with `npx mcp-chat-host`, and signed in from Chromium: the web app and an example app's view
// come from the package. `npx mcp-chat-host sign-in` then gives a second browser its own URL, and
// a used URL is refused. Every command is bounded; the install is the long part (about a minute
// on an idle machine, more on a busy one).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { openCard, viewOf } from "../support/card-frames";
import { expectChatReady } from "../support/chat-page";

const packageFolder = fileURLToPath(new URL("../../packages/mcp-chat-host/", import.meta.url));

/**
 * The environment of the commands: this one without npm's own variables (an `npm run` around the
 * suite sets the workspace and the package, which an install elsewhere must not inherit).
 */
function commandEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^npm_/i.test(name) && name !== "INIT_CWD" && name !== "NODE_OPTIONS",
    ),
  );
}

/** Runs a command to its end within `timeoutMs`; rejects with its output if it fails. */
function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  extraEnvironment: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...commandEnvironment(), ...extraEnvironment },
    });
    let output = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else
        reject(new Error(`${command} ${args.join(" ")} ended with ${code ?? signal}:\n${output}`));
    });
  });
}

/** A started `npx mcp-chat-host`, in a process group of its own (npx starts the bin as a child). */
interface StartedPackage {
  signIn: string;
  origin: string;
  stop(): Promise<void>;
}

function startPackage(cwd: string, data: string, timeoutMs: number): Promise<StartedPackage> {
  const child: ChildProcess = spawn("npx", ["mcp-chat-host", "--port", "0", "--data", data], {
    cwd,
    env: { ...commandEnvironment(), MODEL: "offline", LOG_LEVEL: "warn" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // the group is gone already
    }
  };
  const stop = async () => {
    signal("SIGTERM");
    const forced = setTimeout(() => signal("SIGKILL"), 15_000);
    await exited;
    clearTimeout(forced);
  };
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(`npx mcp-chat-host printed no sign-in URL within ${timeoutMs} ms:\n${output}`),
      );
    }, timeoutMs);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const signIn = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=[\w-]+/.exec(output);
      if (signIn === null) return;
      clearTimeout(timer);
      resolve({ signIn: signIn[0], origin: signIn[1] ?? "", stop });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`npx mcp-chat-host exited (${code}) before it was ready:\n${output}`));
    });
  });
}

let folder = "";
let started: StartedPackage | undefined;

test.afterEach(async () => {
  await started?.stop();
  started = undefined;
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
  folder = "";
});

test("the packed package installs into an empty folder, starts with npx and signs in", async ({
  page,
  browser,
}) => {
  // Packing and a real install with a native build: a minute or two on an idle two-core machine,
  // many more when it is busy.
  test.setTimeout(30 * 60_000);
  expect(
    existsSync(join(packageFolder, "dist", "cli.js")),
    "the package is built by `turbo run build` (npm run test:e2e runs it first)",
  ).toBe(true);
  const manifest = JSON.parse(readFileSync(join(packageFolder, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    bin: Record<string, string>;
  };
  expect(manifest.bin).toEqual({ "mcp-chat-host": "dist/cli.js" });
  for (const [name, version] of Object.entries(manifest.dependencies)) {
    expect(version, `${name} is pinned`).toMatch(/^\d+\.\d+\.\d+$/);
    expect(name.startsWith("@mcp-chat-host/"), `${name} is bundled, not a dependency`).toBe(false);
  }

  folder = mkdtempSync(join(tmpdir(), "mch-package-"));
  const packed = JSON.parse(
    await run("npm", ["pack", "--json", "--pack-destination", folder], packageFolder, 120_000),
  ) as [{ filename: string; files: { path: string }[] }];
  const files = packed[0].files.map((file) => file.path);
  for (const file of [
    "dist/cli.js",
    "dist/sqlite-audit-worker.mjs",
    "dist/web/index.html",
    "dist/views/notes.html",
  ]) {
    expect(files).toContain(file);
  }
  // The bundle, its assets and the manifest: no source, test or build script of the workspace.
  expect(files.filter((file) => !file.startsWith("dist/")).sort()).toEqual([
    "README.md",
    "package.json",
  ]);

  const app = join(folder, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "trial", private: true }));
  await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", join(folder, packed[0].filename)],
    app,
    25 * 60_000,
    // node-gyp compiles better-sqlite3 on every core.
    { JOBS: "max" },
  );
  // What runs comes from the folder: its own better-sqlite3, and no workspace package at all.
  const resolved = await run(
    process.execPath,
    ["-p", 'require.resolve("better-sqlite3")'],
    app,
    30_000,
  );
  expect(resolved.trim().startsWith(join(app, "node_modules"))).toBe(true);
  expect(existsSync(join(app, "node_modules", "@mcp-chat-host"))).toBe(false);

  const data = join(folder, "data");
  started = await startPackage(app, data, 120_000);
  await page.goto(started.signIn);
  await expect(page).toHaveURL(`${started.origin}/`);
  await expectChatReady(page);
  const { card } = await openCard(page, '/call open-notes {"text":"From the package"}');
  await expect(viewOf(card).getByTestId("notes-text")).toHaveValue("From the package");

  // A second browser, without a restart: the running server mints it a URL of its own.
  const url = (await run("npx", ["mcp-chat-host", "sign-in", "--data", data], app, 60_000)).trim();
  expect(url).toMatch(new RegExp(`^${started.origin}/\\?token=[\\w-]+$`));
  const second = await browser.newContext();
  const third = await browser.newContext();
  try {
    const secondPage = await second.newPage();
    await secondPage.goto(url);
    await expect(secondPage).toHaveURL(`${started.origin}/`);
    await expectChatReady(secondPage);
    const thirdPage = await third.newPage();
    await thirdPage.goto(url);
    await expect(
      thirdPage.getByRole("heading", { name: "This sign-in link was already used" }),
    ).toBeVisible();
  } finally {
    await second.close();
    await third.close();
  }
});
