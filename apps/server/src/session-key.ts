import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { securePrivateFolder, writePrivateFile } from "@mcp-chat-host/host";

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
