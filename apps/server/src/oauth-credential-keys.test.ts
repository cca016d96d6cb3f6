import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OAUTH_KEY_FILE, oauthCredentialKeysFrom } from "./oauth-credential-keys";

const folders: string[] = [];
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), "oauth-keys-"));
  folders.push(made);
  return made;
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe("the keys people's server sign-ins are sealed with", () => {
  it("takes the operator's keys when given", () => {
    const data = folder();
    expect(oauthCredentialKeysFrom({ OAUTH_CREDENTIAL_KEYS: "a:abc" }, data)).toEqual({
      keys: "a:abc",
      fromFile: false,
    });
  });

  it("otherwise makes one key, keeps it in its own private file, and reads it back", () => {
    const data = folder();
    const first = oauthCredentialKeysFrom({}, data);
    expect(first.fromFile).toBe(true);
    expect(first.keys).toMatch(/^local:[A-Za-z0-9+/]{43}=$/);
    const path = join(data, OAUTH_KEY_FILE);
    expect(readFileSync(path, "utf8").trim()).toBe(first.keys);
    expect(statSync(path).mode & 0o077).toBe(0);
    expect(oauthCredentialKeysFrom({}, data)).toEqual(first);
  });
});
