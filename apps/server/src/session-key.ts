import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { securePrivateFolder, writePrivateFile } from "@mcp-chat-host/host";
import { CliError } from "./cli-options";
import { secretSetting } from "./secret-setting";

/**
 * The key that signs session cookies, kept in the data folder so that a sign-in survives a
 * restart. Made on first start (32 random bytes, readable by the owner only).
 *
 * @param dataDirectory - the data folder (created `0700` when missing, see `prepareDataFolder`).
 * @returns the key.
 */
export function loadSessionKey(dataDirectory: string): Buffer {
  securePrivateFolder(dataDirectory);
  const path = join(dataDirectory, "session-key");
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, "utf8").trim(), "base64url");
    if (key.length >= 32) return key;
  }
  const key = randomBytes(32);
  writePrivateFile(path, key.toString("base64url"));
  return key;
}

/** The shortest shared secret accepted, in characters. */
const MIN_SECRET_CHARS = 32;

/**
 * The key that signs session cookies: `SESSION_SECRET`, else the content of the file
 * `SESSION_SECRET_FILE` names, else the data folder's own key (see {@link loadSessionKey}). Every
 * node of a cluster must be given the same secret, so a cookie issued by one works on all.
 *
 * @param environment - the environment (secrets already withdrawn into it).
 * @param dataDirectory - the data folder, for the default key.
 * @returns the key.
 * @throws {CliError} for a secret shorter than 32 characters or a file that can't be read.
 */
export function sessionKeyFrom(
  environment: Record<string, string | undefined>,
  dataDirectory: string,
): Buffer | string {
  const secret = secretSetting(environment, "SESSION_SECRET");
  if (secret === undefined || secret === "") return loadSessionKey(dataDirectory);
  if (secret.length < MIN_SECRET_CHARS) {
    throw new CliError(
      `The session secret is ${secret.length} characters long; use at least ${MIN_SECRET_CHARS} (for example \`openssl rand -base64 48\`).`,
    );
  }
  return secret;
}
