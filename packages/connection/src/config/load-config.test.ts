import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpConfigError } from "./config-error";
import { expandHomePath, loadMcpConfig } from "./load-config";

describe("loadMcpConfig", () => {
  let directory = "";
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "mcp-config-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("reads a file and records its path as the source", async () => {
    const path = join(directory, "config.json");
    await writeFile(path, JSON.stringify({ mcpServers: { a: { command: "node" } } }));
    const config = await loadMcpConfig(path);
    expect(config.source).toBe(path);
    expect(Object.keys(config.servers)).toEqual(["a"]);
  });

  it("reads an empty file as no servers", async () => {
    const path = join(directory, "empty.json");
    await writeFile(path, "");
    expect((await loadMcpConfig(path)).servers).toEqual({});
  });

  it("reports a missing file with its path", async () => {
    const path = join(directory, "missing.json");
    const error = await loadMcpConfig(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConfigError);
    expect((error as Error).message).toContain("The MCP client configuration file does not exist.");
    expect((error as Error).message).toContain(path);
  });

  it("expands ~ to the home directory", () => {
    expect(expandHomePath("~")).toBe(homedir());
    expect(expandHomePath("~/.config/mcptools/config.json")).toBe(
      join(homedir(), ".config/mcptools/config.json"),
    );
    expect(expandHomePath("/etc/x.json")).toBe("/etc/x.json");
  });
});
