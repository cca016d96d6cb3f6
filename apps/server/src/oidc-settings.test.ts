import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CliError } from "./cli-error";
import { oidcClientSecretFrom } from "./oidc-settings";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("the OpenID client secret", () => {
  it("comes from OIDC_CLIENT_SECRET, else the file OIDC_CLIENT_SECRET_FILE names, else none", () => {
    const folder = mkdtempSync(join(tmpdir(), "oidc-secret-"));
    folders.push(folder);
    const file = join(folder, "secret");
    writeFileSync(file, "from-the-file\n");
    expect(
      oidcClientSecretFrom({ OIDC_CLIENT_SECRET: "from-env", OIDC_CLIENT_SECRET_FILE: file }),
    ).toBe("from-env");
    expect(oidcClientSecretFrom({ OIDC_CLIENT_SECRET_FILE: file })).toBe("from-the-file");
    expect(oidcClientSecretFrom({})).toBeUndefined();
    expect(() =>
      oidcClientSecretFrom({ OIDC_CLIENT_SECRET_FILE: join(folder, "missing") }),
    ).toThrow(CliError);
    writeFileSync(file, "  \n");
    expect(() => oidcClientSecretFrom({ OIDC_CLIENT_SECRET_FILE: file })).toThrow(/is empty/);
  });
});
