// The keys people's sign-ins to remote MCP servers are sealed with: the operator's
// (`OAUTH_CREDENTIAL_KEYS`, or `OAUTH_CREDENTIAL_KEYS_FILE`), or a key this host makes once and
// keeps in its own file in the data folder, beside the database but never in it. Several nodes
// share one database, so they must be given the same keys by the operator.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { securePrivateFolder, writePrivateFile } from "@mcp-chat-host/host";
import { secretSetting } from "./secret-setting";

/** The file of the key a one-node host makes for itself. */
export const OAUTH_KEY_FILE = "oauth-credential-key";

/**
 * The sealing keys in their written form (`<id>:<base64>`, comma-separated, sealing key first).
 *
 * @param environment - the process environment.
 * @param dataDirectory - the data folder (the key file is made there when no keys are given).
 * @returns the keys, and whether they came from the data folder's file.
 */
export function oauthCredentialKeysFrom(
  environment: Record<string, string | undefined>,
  dataDirectory: string,
): { keys: string; fromFile: boolean } {
  const given = secretSetting(environment, "OAUTH_CREDENTIAL_KEYS");
  if (given !== undefined && given !== "") return { keys: given, fromFile: false };
  securePrivateFolder(dataDirectory);
  const path = join(dataDirectory, OAUTH_KEY_FILE);
  if (existsSync(path)) {
    const kept = readFileSync(path, "utf8").trim();
    if (kept !== "") return { keys: kept, fromFile: true };
  }
  const made = `local:${randomBytes(32).toString("base64")}`;
  writePrivateFile(path, made);
  return { keys: made, fromFile: true };
}
