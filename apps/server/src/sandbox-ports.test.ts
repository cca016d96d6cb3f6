import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileSandboxPorts } from "./sandbox-ports";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "mch-ports-"));
  folders.push(folder);
  return folder;
}

describe("fileSandboxPorts", () => {
  it("gives back the port it remembered, after a restart, in a file only its owner reads", () => {
    const data = dataFolder();
    expect(fileSandboxPorts(data).preferred()).toBeUndefined();
    fileSandboxPorts(data).remember(41234);
    expect(fileSandboxPorts(data).preferred()).toBe(41234);
    const file = join(data, "sandbox-ports.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ sandbox: 41234 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("starts afresh from a file of another shape or with a port out of range", () => {
    const data = dataFolder();
    const file = join(data, "sandbox-ports.json");
    for (const text of ['{"notes": 41234}', '{"sandbox": 70000}', '{"sandbox": "1"}', "not json"]) {
      writeFileSync(file, text);
      expect(fileSandboxPorts(data).preferred(), text).toBeUndefined();
    }
  });
});
