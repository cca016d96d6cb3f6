import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CliError } from "./cli-options";
import { loadSessionKey, sessionKeyFrom } from "./session-key";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), "mch-session-key-"));
  folders.push(made);
  return made;
}

describe("sessionKeyFrom", () => {
  const shared = "a secret every node of the cluster shares, long enough";

  it("takes SESSION_SECRET, so every node signs cookies alike", () => {
    expect(sessionKeyFrom({ SESSION_SECRET: shared }, join(folder(), "data"))).toBe(shared);
  });

  it("reads SESSION_SECRET_FILE when no SESSION_SECRET is set", () => {
    const file = join(folder(), "secret");
    writeFileSync(file, `${shared}\n`);
    expect(sessionKeyFrom({ SESSION_SECRET_FILE: file }, join(folder(), "data"))).toBe(shared);
  });

  it("keeps the data folder's own key when neither is set", () => {
    const data = join(folder(), "data");
    const key = sessionKeyFrom({}, data);
    expect(key).toEqual(loadSessionKey(data));
  });

  it("refuses a short secret and a file that can't be read, in a sentence", () => {
    expect(() => sessionKeyFrom({ SESSION_SECRET: "short" }, folder())).toThrow(/at least 32/);
    expect(() =>
      sessionKeyFrom({ SESSION_SECRET_FILE: join(folder(), "missing") }, folder()),
    ).toThrow(CliError);
  });

  it("refuses an empty SESSION_SECRET_FILE instead of falling back to this node's own key", () => {
    // A node that quietly used its own key would issue cookies no other node accepts.
    const file = join(folder(), "empty");
    writeFileSync(file, "\n");
    expect(() => sessionKeyFrom({ SESSION_SECRET_FILE: file }, folder())).toThrow(
      /SESSION_SECRET_FILE names ".*", which is empty/,
    );
  });
});
